"""The Arrow batch kernels, SimHash, phonetic codes, shingles and the
Speller from Python: the same bytes as the golden files the Rust core and the
wasm module are checked against, and errors that name what was wrong."""

import json
import random
import re
import struct
from collections import defaultdict
from pathlib import Path

import pyarrow as pa
import pytest

import neardup

GOLDEN = Path(__file__).resolve().parents[2] / "tests" / "golden"


def snake(config):
    """The golden file's camelCase options in Python's snake_case, at spec version 1 where the case names none: the
    file is version 1's, and a new configuration's default is 2 (issue 50). (Multiref without verify, which takes no
    version, is not among its cases.)"""
    out = {re.sub(r"([A-Z])", lambda m: "_" + m.group(1).lower(), k): v for k, v in config.items()}
    unverified = out.get("method") == "multiref" and not out.get("verify")
    if "spec" not in out and not unverified:
        out["spec"] = 1
    return out


def dedup_golden():
    return json.loads((GOLDEN / "dedup-v1.json").read_text())


@pytest.mark.parametrize("case", range(len(dedup_golden()["cases"])))
def test_batch_kernels_give_the_golden_bytes_of_every_dedup_configuration(case):
    golden = dedup_golden()
    c = golden["cases"][case]
    stages = neardup.Stages(**snake(c["config"]))
    texts = pa.array(golden["texts"])
    sketches = stages.sketch_batch(texts)
    assert len(sketches) == len(c["sketches"])
    assert [s.hex() for s in sketches.to_pylist()] == c["sketches"]

    keys = stages.keys_batch(sketches)
    assert keys.schema.names == ["row", "key"]
    by_row = defaultdict(list)
    for row, key in zip(keys.column("row").to_pylist(), keys.column("key").to_pylist()):
        by_row[row].append(f"{key:016x}")
    assert [by_row[i] for i in range(len(golden["texts"]))] == c["keys"]

    pairs = [tuple(map(int, v.split()[:2])) for v in c["verify"]]
    a = sketches.take([p[0] for p in pairs])
    b = sketches.take([p[1] for p in pairs])
    got = stages.verify_batch(a, b).to_pylist()
    want = []
    for v in c["verify"]:
        bits = v.split()[2]
        want.append(None if bits == "none" else struct.unpack(">d", bytes.fromhex(bits))[0])
    assert len(got) == len(want)
    assert got == want


def test_sketch_batch_reads_every_arrow_string_layout_as_the_same_texts():
    texts = ["alpha beta gamma delta epsilon zeta", "ünïcödé 日本語 text here", "", "one more line of words"]
    stages = neardup.Stages(shingle="word:2")
    want = stages.sketch(texts)
    assert pa.array(texts).type == pa.string()
    for column in (
        pa.array(texts),
        pa.array(texts, type=pa.large_string()),
        pa.chunked_array([texts[:1], texts[1:]]),
        pa.array(["x"] + texts + ["y"]).slice(1, len(texts)),
    ):
        got = stages.sketch_batch(column)
        assert got.type == pa.binary(len(want[0]))
        assert got.to_pylist() == want
    # A configuration that keeps shingle sets has sketches of many widths.
    varying = neardup.Stages(method="exact", shingle="word:1").sketch_batch(texts)
    assert varying.type == pa.binary()
    assert len({len(s) for s in varying.to_pylist()}) > 1


def test_keys_and_verify_batches_read_binary_and_sliced_columns():
    stages = neardup.Stages()
    texts = [f"document number {i} about near duplicate detection in text collections" for i in range(6)]
    fixed = stages.sketch_batch(texts)
    variable = fixed.cast(pa.binary())
    rows = [0, 1, 2, 3, 4, 5]
    want = [(r, k) for r in rows for k in stages.keys(fixed[r].as_py())]
    for column in (fixed, variable, pa.chunked_array([variable.slice(0, 2), variable.slice(2)])):
        k = stages.keys_batch(column)
        assert list(zip(k.column("row").to_pylist(), k.column("key").to_pylist())) == want
    sliced = stages.keys_batch(variable.slice(2, 3))
    assert sliced.column("row").to_pylist()[0] == 0
    assert sliced.column("key").to_pylist() == [k for r in (2, 3, 4) for k in stages.keys(fixed[r].as_py())]
    v = stages.verify_batch(fixed.slice(0, 5), variable.slice(1, 5)).to_pylist()
    assert v == [stages.verify(fixed[i].as_py(), fixed[i + 1].as_py()) for i in range(5)]


def test_batch_kernels_refuse_bad_columns_by_name():
    stages = neardup.Stages()
    good = stages.sketch_batch(["a text of some words", "another text of words"])
    with pytest.raises(ValueError, match="null"):
        stages.sketch_batch(pa.array(["a", None]))
    with pytest.raises(TypeError, match="texts"):
        stages.sketch_batch(pa.array([1, 2]))
    with pytest.raises(TypeError, match="sketches must be a pyarrow"):
        stages.keys_batch([b"x"])
    with pytest.raises(TypeError, match="int64"):
        stages.keys_batch(pa.array([1, 2]))
    damaged = bytearray(good[1].as_py())
    damaged[20] ^= 1
    with pytest.raises(ValueError, match=r"sketches\[1\]"):
        stages.keys_batch(pa.array([good[0].as_py(), bytes(damaged)]))
    other = neardup.Stages(shingle="word:3").sketch_batch(["a text of some words"])
    with pytest.raises(ValueError, match=r"b\[0\]"):
        stages.verify_batch(good.slice(0, 1), other)
    with pytest.raises(ValueError, match="as long"):
        stages.verify_batch(good, good.slice(1))
    with pytest.raises(ValueError, match="negative"):
        neardup.components_batch(pa.array([-1], pa.int64()), pa.array([2], pa.int64()))
    with pytest.raises(ValueError, match="as long"):
        neardup.components_batch(pa.array([1, 2], pa.int64()), pa.array([2], pa.int64()))


def components_by_search(edges):
    """Connected components by depth-first search: node -> least node."""
    graph = defaultdict(set)
    for a, b in edges:
        if a != b:
            graph[a].add(b)
            graph[b].add(a)
    label = {}
    for start in sorted(graph):
        if start in label:
            continue
        stack, seen = [start], {start}
        while stack:
            n = stack.pop()
            for m in graph[n]:
                if m not in seen:
                    seen.add(m)
                    stack.append(m)
        for n in seen:
            label[n] = min(seen)
    return label


@pytest.mark.parametrize("seed", range(4))
def test_components_batch_labels_each_node_with_the_least_of_its_component(seed):
    rng = random.Random(seed)
    edges = [(rng.randrange(300), rng.randrange(300)) for _ in range(rng.randrange(50, 250))]
    got = neardup.components_batch(
        pa.array([a for a, _ in edges], pa.int64()), pa.array([b for _, b in edges], pa.uint64())
    )
    want = components_by_search(edges)
    assert got.column("pos").to_pylist() == sorted(want)
    assert dict(zip(got.column("pos").to_pylist(), got.column("cluster").to_pylist())) == want


def test_simhash_gives_the_golden_fingerprints():
    cases = json.loads((GOLDEN / "sketches-v1.json").read_text())["simhash"]
    assert len(cases) >= 4
    for c in cases:
        f = neardup.SimHash.fingerprint(c["text"], shingle=c["shingle"], weights=c["weights"], seed=int(c["seed"]))
        assert f.hex == c["fingerprint"], c
        assert f.value == int(c["fingerprint"], 16)
        assert f.config == {"shingle": c["shingle"], "weights": c["weights"], "seed": int(c["seed"]), "spec": 1}


def test_simhash_distances_empty_texts_and_errors():
    a = neardup.SimHash.fingerprint("the cat sat on the mat by the door of the house today")
    b = neardup.SimHash.fingerprint("the cat sat on the mat by the door of the house yesterday")
    c = neardup.SimHash.fingerprint("an unrelated sentence about markets, rain and engines")
    assert a.distance(b) < a.distance(c)
    assert neardup.SimHash.hamming_distance(a.value, c.value) == a.distance(c)
    assert neardup.SimHash.hamming_distance(0, (1 << 64) - 1) == 64
    assert neardup.SimHash.cosine_estimate(0) == 1.0
    assert neardup.SimHash.cosine_estimate(32) == pytest.approx(0.0, abs=1e-12)
    assert neardup.SimHash.fingerprint("!!! ...").is_empty
    assert not a.is_empty
    with pytest.raises(ValueError, match="incompatible fingerprint"):
        a.distance(neardup.SimHash.fingerprint("the cat sat", shingle="word:1"))
    with pytest.raises(TypeError, match="invalid option word_k: unknown field"):
        neardup.SimHash.fingerprint("x", word_k=3)
    assert neardup.SimHash.from_shingles([]).is_empty
    with pytest.raises(ValueError, match="64"):
        neardup.SimHash.cosine_estimate(65)
    custom = neardup.SimHash.from_shingles([1, 2, 3])
    assert custom == neardup.Fingerprint.from_value(custom.value)


def test_phonetic_codes_and_shingles_match_the_golden_file():
    golden = json.loads((GOLDEN / "phonetic-v1.json").read_text())
    algorithms = ["soundex", "phonex", "dsound", "soundd", "phonix", "metaphone"]
    assert len(golden["codes"]) > 10
    for c in golden["codes"]:
        for alg in algorithms:
            assert neardup.phonetic(c["word"], alg) == c[alg], (c["word"], alg)
        if "metaphone_alternate" in c:
            assert neardup.double_metaphone(c["word"]) == (c["metaphone"], c["metaphone_alternate"])
    assert sum("metaphone_alternate" in c for c in golden["codes"]) > 10
    for s in golden["shingles"]:
        got = neardup.shingles(s["text"], s["shingle"], int(s["seed"]))
        assert [f"{h:016x}" for h in got] == s["hashes"], s["shingle"]
    with pytest.raises(ValueError, match="algorithm"):
        neardup.phonetic("word", "nysiis")
    with pytest.raises(ValueError, match="max_length"):
        neardup.double_metaphone("word", 0)
    with pytest.raises(ValueError):
        neardup.shingles("a b c", "word:0")


def test_speller_corrects_real_misspellings_and_refuses_bad_bytes():
    speller = neardup.Speller.english()
    assert len(speller) > 50_000
    assert "receive" in speller and "recieve" not in speller
    # Common misspellings (Wikipedia's list) and their corrections.
    for wrong, right in [("recieve", "receive"), ("seperate", "separate"), ("goverment", "government")]:
        assert speller.correct(wrong) == right
    assert speller.correct("receive") == "receive"
    assert speller.correct_text("The comittee recieved it.") == "The committee received it."
    top = speller.candidates("teh", 3)
    assert 1 <= len(top) <= 3 and top[0]["word"] == "the" and top[0]["distance"] == 1
    assert speller.candidates("the") == []
    with pytest.raises(ValueError, match="max"):
        speller.candidates("teh", 0)
    with pytest.raises(ValueError):
        neardup.Speller.from_bytes(b"not a dictionary")
