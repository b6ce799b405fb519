"""The golden files against tests/spec_reference.py, an implementation of
SPEC.md written from its text alone: every covered golden case must agree
(run by `npm test` with pytest; see the module docs of spec_reference for
what is covered)."""

import json
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import spec_reference as ref  # noqa: E402

GOLDEN = HERE / "golden"
SPEC = json.loads((GOLDEN / "spec-v1.json").read_text())
SKETCHES = json.loads((GOLDEN / "sketches-v1.json").read_text())
NORMALIZED = {c["input"]: c["normalized"] for c in SPEC["cases"]}


def tokens_of(text):
    """The golden file's tokens of `text` when it has them (§1 needs UAX #29),
    else the ASCII rules of spec_reference."""
    if text in NORMALIZED:
        return NORMALIZED[text].split(" ") if NORMALIZED[text] else []
    return ref.ascii_tokens(text)


def hexes(values):
    return [f"{v:016x}" for v in values]


def test_the_hash_gives_the_published_fnv_vectors():
    assert ref.fnv1a64(0, b"") == 0xCBF29CE484222325
    assert ref.fnv1a64(0, b"a") == 0xAF63DC4C8601EC8C
    assert ref.fnv1a64(0, b"foobar") == 0x85944171F73967E8


def test_ascii_tokens_agree_with_the_golden_normalisation():
    ascii_cases = [c for c in SPEC["cases"] if c["input"].isascii()]
    assert len(ascii_cases) >= 8
    for c in ascii_cases:
        assert " ".join(ref.ascii_tokens(c["input"])) == c["normalized"], c["name"]
        spans = [c["input"][a:b] for a, b in c["tokens"]]
        assert len(spans) == len(ref.ascii_tokens(c["input"])), c["name"]


@pytest.mark.parametrize("case", SPEC["cases"], ids=lambda c: c["name"])
def test_shingles_of_every_spec_case(case):
    tokens = case["normalized"].split(" ") if case["normalized"] else []
    seed = int(case["seed"])
    assert hexes(ref.word_shingles(tokens, case["word_k"], seed)) == case["word_shingles"]
    assert hexes(ref.char_shingles(case["normalized"], case["char_q"], seed)) == case["char_shingles"]


@pytest.mark.parametrize("case", SKETCHES["minhash"], ids=lambda c: f"{c['scheme']}-{c['num_perm']}-{c['shingle']}-{c['text'][:12]}")
def test_minhash_bytes_of_every_golden_signature(case):
    seed = int(case["seed"])
    _, data = ref.minhash(tokens_of(case["text"]), case["num_perm"], seed, case["shingle"], case["scheme"])
    assert data.hex() == case["bytes"]


@pytest.mark.parametrize("which", ["lsh", "lsh_oph"])
def test_band_keys_of_the_golden_lsh_cases(which):
    g = SKETCHES[which]
    assert len(g["band_keys"]) == len(g["docs"]) >= 3
    for (_, text), want in zip(g["docs"], g["band_keys"]):
        values, _ = ref.minhash(tokens_of(text), g["num_perm"], 0, "word:3", g["scheme"])
        assert hexes(ref.band_keys(values, g["bands"])) == want, text


def test_simhash_fingerprints_of_every_golden_case():
    assert len(SKETCHES["simhash"]) >= 6
    for c in SKETCHES["simhash"]:
        seed = int(c["seed"])
        features = ref.shingles(tokens_of(c["text"]), c["shingle"], seed)
        assert f"{ref.simhash(features, c['weights']):016x}" == c["fingerprint"], c


def test_table_keys_of_the_golden_simhash_index():
    g = SKETCHES["simhash_index"]
    blocks = g["max_k"] + 2  # the index's default blocks (10 tables at k = 3)
    for (_, fp), want in zip(g["fingerprints"], g["table_keys"]):
        assert len(want) == 10
        assert hexes(ref.table_keys(int(fp, 16), g["max_k"], blocks)) == want, fp


def test_soundex_dsound_soundd_and_phonex_of_every_golden_word():
    codes = json.loads((GOLDEN / "phonetic-v1.json").read_text())["codes"]
    checked = 0
    for c in codes:
        if ref.fold_ascii(c["word"]) is None:
            continue
        assert ref.soundex(c["word"]) == c["soundex"], c["word"]
        assert ref.dsound(c["word"]) == c["dsound"], c["word"]
        assert ref.soundd(c["word"]) == c["soundd"], c["word"]
        assert ref.phonex(c["word"]) == c["phonex"], c["word"]
        checked += 1
    assert checked >= 20
    # The spec's own examples.
    assert [ref.soundex(w) for w in ("Tymczak", "Ashcraft", "Pfister")] == ["T522", "A261", "P236"]
    assert ref.dsound("Rodgers") == ref.dsound("Rogers") == "602062"
    assert ref.soundd("Knight") == "5300"
    assert [ref.phonex(w) for w in ("Guillaume", "River", "Corley", "Coley", "hs")] == ["G45", "R16", "C4", "C4", ""]


def test_dedup_minhash_keys_of_the_golden_dedup_cases():
    g = json.loads((GOLDEN / "dedup-v1.json").read_text())
    default = g["cases"][0]
    assert default["config"] == {}
    # The defaults: char:5, one-permutation MinHash of 128 values, bands by
    # the advisor at 0.5 (read from the key count: 128 values in that many
    # bands), seed 0.
    bands = len(default["keys"][0])
    assert bands >= 1
    checked = 0
    for text, want in zip(g["texts"], default["keys"]):
        if text not in NORMALIZED and not text.isascii():
            continue  # its tokens need UAX #29 (module docs)
        values, _ = ref.minhash(tokens_of(text), 128, 0, "char:5", "oph")
        assert hexes(ref.band_keys(values, bands)) == want, text
        checked += 1
    assert checked == 3, "the two near-duplicates and the empty text"
