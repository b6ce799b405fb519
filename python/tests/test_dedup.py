"""neardup from Python: the core's dedup pipeline, the same pairs as the CLI,
the stage functions in pieces, and errors that name what was wrong."""

import json
import os
import pickle
import random
import subprocess
from pathlib import Path

import pytest

import neardup

REPO = Path(__file__).resolve().parents[2]
DATA = Path(os.environ.get("NEARDUP_DATA", REPO.parent / "shared" / "data"))


def docs_bench():
    rows = [json.loads(line) for line in (DATA / "docs-bench" / "docs.jsonl").read_text().splitlines() if line]
    truth = set()
    for line in (DATA / "docs-bench" / "pairs.tsv").read_text().splitlines()[1:]:
        a, b = line.split("\t")[:2]
        truth.add((min(a, b), max(a, b)))
    return rows, truth


def test_dedup_finds_docs_bench_pairs_with_no_options_and_the_clis_pairs():
    rows, truth = docs_bench()
    result = neardup.dedup([r["text"] for r in rows], ids=[r["id"] for r in rows])
    found = {(min(a, b), max(a, b)) for a, b, _ in result.pairs}
    tp = len(found & truth)
    precision, recall = tp / len(found), tp / len(truth)
    f1 = 2 * precision * recall / (precision + recall)
    assert f1 >= 0.95, (precision, recall, f1)
    assert result.summary["documents"] == 5075
    assert result.summary["pairs"] == len(result.pairs)
    assert len(result.keep) + result.summary["duplicates"] == 5075
    cli = next((p for p in (REPO / "target" / "release" / "neardup", REPO / "target" / "debug" / "neardup") if p.exists()), None)
    assert cli, "the neardup CLI is built (cargo test --features cli builds it)"
    out = subprocess.run([cli, "dedup", DATA / "docs-bench" / "docs.jsonl"], capture_output=True, text=True, check=True).stdout
    cli_pairs = {(min(p["a"], p["b"]), max(p["a"], p["b"])): p["jaccard"] for p in map(json.loads, out.splitlines())}
    assert set(cli_pairs) == found
    for a, b, s in result.pairs:
        assert cli_pairs[(min(a, b), max(a, b))] == s
    out = subprocess.run([cli, "dedup", DATA / "docs-bench" / "docs.jsonl", "--clusters"], capture_output=True, text=True, check=True).stdout
    assert [json.loads(line)["cluster"] for line in out.splitlines()] == result.clusters


def test_pyarrow_strings_give_the_same_result():
    pa = pytest.importorskip("pyarrow")
    rows, _ = docs_bench()
    rows = rows[:800]
    texts = [r["text"] for r in rows]
    ids = [r["id"] for r in rows]
    want = neardup.dedup(texts, ids=ids)
    for arr in (pa.array(texts), pa.array(texts, type=pa.large_string()), pa.array(["x"] + texts)[1:]):
        got = neardup.dedup(arr, ids=pa.array(ids))
        assert got.pairs == want.pairs and got.clusters == want.clusters and got.keep == want.keep
    with pytest.raises(ValueError, match="null"):
        neardup.dedup(pa.array(["a", None]))


def test_deduplicator_streams_removes_and_pickles():
    base = "Near-duplicate detection finds documents that are almost the same: copies with small edits."
    d = neardup.Deduplicator()
    assert d.add("a", base) == []
    assert d.add("b", "Something else entirely: a recipe for bread with flour, water, salt and time.") == []
    found = d.add("c", base.replace("small", "tiny"))
    assert [i for i, _ in found] == ["a"] and 0.5 <= found[0][1] <= 1
    d.add("d", base)
    assert d.clusters() == [["a", "c", "d"]]
    assert d.keep() == ["a", "b"] and d.duplicates() == ["c", "d"]
    assert "a" in d and len(d) == 4
    back = pickle.loads(pickle.dumps(d))
    assert back.clusters() == d.clusters() and back.pairs() == d.pairs()
    assert back.to_bytes() == d.to_bytes()
    assert d.remove("a") and not d.remove("a")
    assert d.clusters() == [["c", "d"]]
    assert d.summary() == {"documents": 3, "pairs": 1, "clusters": 1, "duplicates": 1}
    with pytest.raises(ValueError, match='id "b" is already in the index'):
        d.add("b", "again")
    with pytest.raises(ValueError, match="checksum|too short|truncated"):
        neardup.Deduplicator.from_bytes(d.to_bytes()[:-3])


def test_stage_functions_in_pieces_give_dedups_pairs_and_clusters():
    rng = random.Random(5)
    words = [f"w{i}x" for i in range(300)]
    texts = []
    for _ in range(200):
        if texts and rng.random() < 0.3:
            src = rng.choice(texts).split()
            texts.append(" ".join(w if rng.random() > 0.05 else rng.choice(words) for w in src))
        else:
            texts.append(" ".join(rng.choice(words) for _ in range(rng.randint(10, 60))))
    for options in ({}, {"method": "simhash"}, {"method": "exact", "shingle": "word:1", "threshold": 0.7}):
        whole = neardup.dedup(texts, **options)
        stages = neardup.Stages(**options)
        # Sketched in shuffled chunks, grouped by key, verified, clustered.
        order = list(range(len(texts)))
        rng.shuffle(order)
        sketches = [None] * len(texts)
        for start in range(0, len(order), 37):
            chunk = order[start : start + 37]
            for i, s in zip(chunk, neardup.Stages(**options).sketch([texts[i] for i in chunk])):
                sketches[i] = s
        buckets = {}
        for i, s in enumerate(sketches):
            for k in stages.keys(s):
                buckets.setdefault(k, set()).add(i)
        candidates = {(a, b) for ids in buckets.values() for a in ids for b in ids if a < b}
        edges = {}
        for a, b in candidates:
            v = stages.verify(sketches[a], sketches[b])
            if v is not None:
                edges[(a, b)] = v
        # dedup's pairs are a spanning tree of each cluster drawn from the
        # verified candidate pairs (issue 35): n - 1 pairs in a cluster of n.
        pairs = {(int(a), int(b)): s for a, b, s in whole.pairs}
        assert all(edges.get(p) == s for p, s in pairs.items()), options
        clusters = neardup.clusters_of_edges(sorted(edges))
        assert [[str(i) for i in c] for c in clusters] == whole.clusters
        assert len(pairs) == sum(len(c) - 1 for c in clusters)
        assert len(edges) > len(pairs) >= 10


def test_bad_input_names_what_was_wrong():
    with pytest.raises(TypeError, match=r"texts\[1\] must be str, got int"):
        neardup.dedup(["a", 1])
    with pytest.raises(TypeError, match="got str"):
        neardup.dedup("one text")
    with pytest.raises(TypeError, match="got int"):
        neardup.dedup(42)
    with pytest.raises(ValueError, match=r"ids\[2\].*already"):
        neardup.dedup(["a", "b", "c"], ids=["x", "y", "x"])
    with pytest.raises(ValueError, match="ids has 2 values for 3 texts"):
        neardup.dedup(["a", "b", "c"], ids=["x", "y"])
    with pytest.raises(ValueError, match="threshold: must be in"):
        neardup.dedup(["a"], threshold=1.5)
    with pytest.raises(ValueError, match="k: does not apply to method minhash"):
        neardup.dedup(["a"], k=3)
    with pytest.raises(TypeError, match="invalid option treshold: unknown field `treshold`"):
        neardup.dedup(["a"], treshold=0.5)
    with pytest.raises(TypeError, match="invalid option num_perm: invalid type: string"):
        neardup.dedup(["a"], num_perm="many")
    with pytest.raises(ValueError, match="method"):
        neardup.dedup(["a"], method="magic")
    assert neardup.dedup([]).summary == {"documents": 0, "pairs": 0, "clusters": 0, "duplicates": 0}


def test_a_document_over_64_mib_is_refused_before_work_naming_its_position():
    big = "ab " * ((64 << 20) // 3 + 1)
    with pytest.raises(ValueError, match=r"texts\[1\]: .*more than the limit of 67108864 bytes"):
        neardup.dedup(["a small text", big])
    with pytest.raises(ValueError, match=r"texts\[0\]"):
        neardup.Stages().sketch_batch([big])


def test_refuses_the_option_sets_every_binding_refuses_with_the_cores_words():
    """tests/refusals.json: the same option sets as the CLI and npm, the same
    core message with the option named in snake_case."""
    table = json.loads((REPO / "tests" / "refusals.json").read_text())
    assert len(table["sets"]) >= 20
    for s in table["sets"]:
        want = f"invalid option {s['option']}: {s['reason']}"
        for call in (lambda: neardup.dedup(["one text"], **s["options"]), lambda: neardup.Deduplicator(**s["options"])):
            with pytest.raises(ValueError) as e:
                call()
            assert want in str(e.value), (s["options"], str(e.value))


def test_correct_shingles_use_the_bundled_dictionary_or_one_given():
    original = "The government should recognise that the environment needs protection from pollution and waste."
    typos = "The goverment should recognize that the enviroment needs protecion from polution and waste."
    assert neardup.dedup([original, typos], shingle="word:3", threshold=0.3).pairs == []
    corrected = neardup.dedup([original, typos], shingle="word:3+correct", threshold=0.3)
    assert corrected.clusters == [["0", "1"]]
    speller = neardup.Speller.english()
    given = neardup.dedup([original, typos], shingle="word:3+correct", threshold=0.3, dictionary=speller)
    assert given.clusters == corrected.clusters
    with pytest.raises(ValueError, match="invalid option dictionary: applies to word:K\\+correct shingles only"):
        neardup.dedup([original], dictionary=speller)
    d = neardup.Deduplicator(shingle="word:3+correct", threshold=0.3)
    d.add("a", original)
    assert [i for i, _ in d.add("b", typos)] == ["a"]
    back = neardup.Deduplicator.from_bytes(d.to_bytes())
    # One document of each cluster: b is in a's.
    assert [i for i, _ in back.query(typos)] == ["b"]
    assert back.clusters() == [["a", "b"]]


def test_tfidf_weights_count_the_collection_first_and_pieces_merge():
    docs, _ = docs_bench()
    sample = docs[:300]
    texts, ids = [d["text"] for d in sample], [d["id"] for d in sample]
    r = neardup.dedup(texts, ids=ids, method="simhash", weights="tfidf")
    assert r.summary["documents"] == 300
    with pytest.raises(ValueError, match="tfidf needs the collection's document frequencies"):
        neardup.Deduplicator(method="simhash", weights="tfidf")
    stages = neardup.Stages(method="simhash", weights="tfidf")
    assert stages.needs_frequencies
    merged = neardup.merge_frequencies([stages.count(texts[:100]), stages.count(texts[100:])])
    weighted = stages.with_frequencies(merged)
    assert not weighted.needs_frequencies
    whole = neardup.Stages(method="simhash", weights="tfidf").with_frequencies(stages.count(texts))
    assert weighted.sketch(texts[:5]) == whole.sketch(texts[:5])
    with pytest.raises(ValueError, match="tfidf"):
        stages.sketch(texts[:1])


def test_query_finds_without_adding_and_threads_share_one_deduplicator():
    import threading

    d = neardup.Deduplicator()
    text = "Near-duplicate detection finds documents that are almost the same, copies with small edits here and there."
    d.add("a", text)
    assert [i for i, _ in d.query(text.replace("small", "tiny"))] == ["a"]
    assert len(d) == 1
    errors = []

    def work(t):
        try:
            for i in range(150):
                d.add(f"t{t}-{i}", f"{text} variant {t} {i} " + "x" * (i % 7))
        except Exception as e:  # noqa: BLE001 - any error fails the test
            errors.append(e)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(d) == 601


def test_ctrl_c_stops_a_long_dedup():
    """Issue 35: SIGINT during dedup(method="exact") of docs-bench (minutes
    of work) raises KeyboardInterrupt: signals are checked between batches
    of 256 documents. The signal is sent the moment the native call begins
    (a profile hook sees its ``c_call``), never after a guessed sleep
    (issue 51); the timeout only guards against a hang."""
    import sys

    script = (
        "import json, os, signal, sys, threading, neardup\n"
        "texts = [json.loads(l)['text'] for l in open(sys.argv[1]) if l.strip()]\n"
        "def hook(frame, event, arg):\n"
        "    if event == 'c_call' and arg is neardup.dedup:\n"
        "        sys.setprofile(None)\n"
        "        threading.Thread(target=os.kill, args=(os.getpid(), signal.SIGINT)).start()\n"
        "try:\n"
        "    sys.setprofile(hook)\n"
        "    neardup.dedup(texts, method='exact')\n"
        "    print('finished', flush=True)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
    )
    p = subprocess.Popen(
        [sys.executable, "-c", script, str(DATA / "docs-bench" / "docs.jsonl")], stdout=subprocess.PIPE, text=True
    )
    out, _ = p.communicate(timeout=60)
    assert out.strip() == "interrupted"


def test_thousands_of_copies_are_linear_and_the_full_list_is_bounded():
    """Issue 35: 10,000 copies of one text crashed dedup() (SIGABRT) and
    5,000 made Deduplicator.pairs() panic; now each copy pairs with the first
    and every pair within clusters is there on request, up to a bound."""
    text = "Home | About | Contact | Terms of service | Privacy policy | Careers"
    r = neardup.dedup([text] * 10_000)
    assert r.summary == {"documents": 10_000, "pairs": 9_999, "clusters": 1, "duplicates": 9_999}
    assert all(a == "0" for a, _, _ in r.pairs) and r.keep == ["0"]
    d = neardup.Deduplicator()
    for i in range(5_000):
        d.add(f"c{i}", text)
    assert len(d.pairs()) == 4_999
    with pytest.raises(ValueError, match=r"invalid option max_pairs: the clusters hold 12497500 pairs"):
        d.all_pairs()
    for i in range(4_000):
        d.remove(f"c{i + 1000}")
    assert len(d.all_pairs(max_pairs=499_500)) == 499_500


def test_inputs_that_would_be_misread_are_refused_by_name():
    """Issue 35, point 8: a dict, a DataFrame or a table iterate as their
    keys or column names; one str given to update_batch as its characters; a
    lone surrogate is not valid Unicode; a uint64 position past 2^63 would
    come back negative."""
    import pyarrow as pa

    with pytest.raises(TypeError, match="got dict: give its text column"):
        neardup.dedup({"a": "some text", "b": "some text"})
    with pytest.raises(TypeError, match="got Table: give its text column"):
        neardup.dedup(pa.table({"text": ["x y z", "x y z"]}))
    pandas = pytest.importorskip("pandas")
    with pytest.raises(TypeError, match="got DataFrame: give its text column"):
        neardup.dedup(pandas.DataFrame({"text": ["x y z", "x y z"]}))
    # A column is what it should be given.
    assert neardup.dedup(pandas.DataFrame({"text": ["x y z w v", "x y z w v"]})["text"]).summary["clusters"] == 1
    m = neardup.MinHash()
    with pytest.raises(TypeError, match="got one str: use update\\(\\) for one token"):
        m.update_batch("abc")
    with pytest.raises(TypeError, match="got one bytes"):
        m.update_batch(b"abc")
    m.update_batch(["abc", b"def"])
    with pytest.raises(ValueError, match=r"a token holds a lone surrogate"):
        m.update("bad \ud800 token")
    with pytest.raises(ValueError, match=r"texts\[1\] holds a lone surrogate"):
        neardup.dedup(["fine text", "bad \udc00 text"])
    big = pa.array([2**63, 1], pa.uint64())
    with pytest.raises(ValueError, match=r"a\[0\] is 9223372036854775808, not below 2\^63"):
        neardup.components_batch(big, pa.array([1, 2], pa.uint64()))
