"""Polars and DuckDB: the kernels as expressions and SQL functions give the
golden bytes every other surface is checked against (native, wasm32, Node,
Python), and their dedup gives exactly neardup.dedup's clusters on real data
(docs-bench's planted pairs), on groups of 1, 2, 3 and 1,000 copies."""

import json
import random
import struct

import pyarrow as pa
import pytest

import neardup

pl = pytest.importorskip("polars")
duckdb = pytest.importorskip("duckdb")
import neardup.duckdb  # noqa: E402
import neardup.polars  # noqa: E402

from test_engines import docs_bench, expected, f1_of_clusters  # noqa: E402
from test_kernels import GOLDEN, snake  # noqa: E402


def golden_cases():
    g = json.loads((GOLDEN / "dedup-v1.json").read_text())
    return g["texts"], g["cases"]


def want_verify(c):
    pairs = [tuple(map(int, v.split()[:2])) for v in c["verify"]]
    want = [None if v.split()[2] == "none" else struct.unpack(">d", bytes.fromhex(v.split()[2]))[0] for v in c["verify"]]
    return pairs, want


@pytest.mark.parametrize("case", range(len(golden_cases()[1])))
def test_polars_expressions_give_the_golden_sketches_keys_and_similarities(case):
    texts, cases = golden_cases()
    c = cases[case]
    options = snake(c["config"])
    df = pl.DataFrame({"text": texts}).with_columns(sketch=pl.col("text").neardup.sketch(**options))
    df = df.with_columns(keys=pl.col("sketch").neardup.keys(**options))
    assert df["sketch"].dtype == pl.Binary and df["keys"].dtype == pl.List(pl.UInt64)
    assert [s.hex() for s in df["sketch"].to_list()] == c["sketches"]
    assert [[f"{k:016x}" for k in ks] for ks in df["keys"].to_list()] == c["keys"]
    pairs, want = want_verify(c)
    p = pl.DataFrame({"a": df["sketch"].gather([a for a, _ in pairs]), "b": df["sketch"].gather([b for _, b in pairs])})
    got = p.select(pl.col("a").neardup.similarity("b", **options)).to_series().to_list()
    assert got == want


@pytest.mark.parametrize("case", range(len(golden_cases()[1])))
def test_duckdb_functions_give_the_golden_sketches_keys_and_similarities(case):
    texts, cases = golden_cases()
    c = cases[case]
    options = snake(c["config"])
    con = neardup.duckdb.register(duckdb.connect(), **options)
    con.register("t", pa.table({"pos": list(range(len(texts))), "text": texts}))
    rows = con.sql("SELECT neardup_sketch(text), neardup_keys(neardup_sketch(text)) FROM t ORDER BY pos").fetchall()
    assert [bytes(s).hex() for s, _ in rows] == c["sketches"]
    assert [[f"{k:016x}" for k in ks] for _, ks in rows] == c["keys"]
    pairs, want = want_verify(c)
    con.register("p", pa.table({"n": list(range(len(pairs))), "a": [a for a, _ in pairs], "b": [b for _, b in pairs]}))
    got = con.sql(
        "SELECT neardup_similarity(neardup_sketch(x.text), neardup_sketch(y.text)) FROM p "
        "JOIN t x ON x.pos = p.a JOIN t y ON y.pos = p.b ORDER BY p.n"
    ).fetchall()
    assert [g for (g,) in got] == want


def test_null_texts_give_null_sketches_keys_and_similarities():
    df = pl.DataFrame({"text": ["alpha beta gamma delta epsilon", None, ""]})
    out = df.with_columns(s=pl.col("text").neardup.sketch()).with_columns(
        k=pl.col("s").neardup.keys(), sim=pl.col("s").neardup.similarity(pl.col("s"))
    )
    assert out["s"].null_count() == 1 and out["s"][1] is None
    assert out["k"].to_list()[1] is None and out["k"].to_list()[2] == []
    assert out["sim"].to_list() == [1.0, None, None]  # an empty sketch matches nothing
    con = neardup.duckdb.register(duckdb.connect())
    assert con.sql("SELECT neardup_sketch(NULL), neardup_keys(NULL), neardup_similarity(NULL, NULL)").fetchall() == [
        (None, None, None)
    ]


def rows_of(texts):
    return [{"id": f"d{i}", "text": t} for i, t in enumerate(texts)]


def polars_clusters(rows, frame="eager", **options):
    df = pl.DataFrame({"id": [r["id"] for r in rows], "text": [r["text"] for r in rows]})
    out = neardup.polars.dedup(df.lazy() if frame == "lazy" else df, **options)
    out = out.collect() if frame == "lazy" else out
    assert out.columns == ["id", "text", "cluster", "keep"]
    return {i: (c, k) for i, c, k in zip(out["id"], out["cluster"], out["keep"])}


def duckdb_clusters(rows, view=False, via="kernel", **options):
    con = duckdb.connect()
    con.register("src", pa.table({"id": [r["id"] for r in rows], "text": [r["text"] for r in rows]}))
    con.execute("CREATE TABLE docs AS SELECT * FROM src")
    if view:  # a view has no rowid: the recipe copies it, in its order
        con.execute("CREATE VIEW docs_view AS SELECT * FROM docs")
    got = neardup.duckdb.dedup(con, "docs_view" if view else "docs", via=via, **options).fetchall()
    assert [i for i, _, _ in got] == [r["id"] for r in rows]  # the table's order
    return {i: (c, k) for i, c, k in got}


def expected_with(rows, **options):
    if not options:
        return expected(rows)[0]
    result = neardup.dedup([r["text"] for r in rows], ids=[r["id"] for r in rows], **options)
    rep = {r["id"]: r["id"] for r in rows}
    for c in result.clusters:
        for i in c:
            rep[i] = c[0]
    return {i: (c, c == i) for i, c in rep.items()}


@pytest.fixture(scope="module")
def bench():
    return docs_bench()


def test_polars_dedup_of_docs_bench_is_neardup_dedup_and_finds_the_planted_pairs(bench):
    rows, truth = bench
    want = expected(rows)[0]
    for frame in ("eager", "lazy"):
        got = polars_clusters(rows, frame)
        assert got == want, frame
    assert f1_of_clusters(got, truth) >= 0.95


def test_duckdb_recipe_on_docs_bench_is_neardup_dedup_and_finds_the_planted_pairs(bench):
    rows, truth = bench
    for via in ("sql", "kernel"):
        got = duckdb_clusters(rows, via=via)
        assert got == expected(rows)[0], via
        assert f1_of_clusters(got, truth) >= 0.95


BASE = (
    "Measurements of the river delta were taken every spring by the survey team, who noted the "
    "silt, the flow and the birds that nested on the banks through the long dry season. "
)


def prose(seed, words=60):
    """A text of random words from a vocabulary of a thousand made-up ones: texts of two seeds share few shingles."""
    rng = random.Random(seed)
    vocab = ["".join(rng.choice("bcdfghklmnprstvz") + rng.choice("aeiou") for _ in range(3)) for _ in range(1000)]
    return " ".join(rng.choice(vocab) for _ in range(words)) + "."


def copies_shapes():
    """Groups of 1, 2, 3 and 1,000 near copies, among singletons, in mixed order."""
    texts = [prose(100 + i) for i in range(8)]
    groups = {
        1: [prose(1)],
        2: [prose(2), prose(2) + " A word more."],
        3: [prose(3) + f" Copy {k}." for k in range(3)],
        1000: [prose(4) + f" Copy {k % 7}." for k in range(1000)],
    }
    for g in groups.values():
        texts.extend(g)
    texts = texts[::2] + texts[1::2]  # interleave so no group is contiguous
    return rows_of(texts)


@pytest.mark.parametrize("options", [{}, {"method": "simhash", "shingle": "word:3"}, {"method": "exact", "threshold": 0.8}])
def test_groups_of_1_2_3_and_1000_copies_give_the_same_clusters_everywhere(options):
    rows = copies_shapes()
    want = expected_with(rows, **options)
    sizes = sorted(
        (sum(1 for _, (c, _) in want.items() if c == rep) for rep in {c for c, _ in want.values()}), reverse=True
    )
    assert sizes[:3] == [1000, 3, 2] and sizes.count(1) == 9  # the shapes are there
    assert polars_clusters(rows, **options) == want
    assert polars_clusters(rows, "lazy", **options) == want
    for via in ("sql", "kernel"):
        assert duckdb_clusters(rows, via=via, **options) == want, via
        assert duckdb_clusters(rows, view=True, via=via, **options) == want, via


def test_integer_ids_keep_their_type_and_tfidf_counts_the_whole_frame():
    df = pl.DataFrame({"id": [10, 20, 30], "text": [BASE, BASE + "!", "Something else entirely, about boats and sails."]})
    out = neardup.polars.dedup(df, method="simhash", weights="tfidf")
    assert out["cluster"].dtype == pl.Int64
    want = neardup.dedup(list(df["text"]), ids=[str(i) for i in df["id"]], method="simhash", weights="tfidf")
    assert [str(c) for c in out["cluster"]] == [
        next((c[0] for c in want.clusters if str(i) in c), str(i)) for i in df["id"]
    ]


def test_bad_frames_and_options_are_named():
    df = pl.DataFrame({"id": ["a", "b"], "text": ["x y z", "x y z"]})
    with pytest.raises(neardup.InputError, match="no column 'body'"):
        neardup.polars.dedup(df, text="body")
    with pytest.raises(neardup.InputError, match="'keep' already"):
        neardup.polars.dedup(df.with_columns(keep=pl.lit(1)))
    with pytest.raises(neardup.ConfigError, match="threshold"):
        neardup.polars.dedup(df, threshold=2)
    with pytest.raises(neardup.ConfigError, match="threshold"):
        pl.col("text").neardup.sketch(threshold=2)
    with pytest.raises(neardup.ConfigError, match="tfidf"):
        pl.col("text").neardup.sketch(method="simhash", weights="tfidf")
    with pytest.raises(neardup.InputError, match="ids"):
        neardup.polars.dedup(pl.DataFrame({"id": ["a", "a"], "text": ["x y z", "p q r"]}))
    with pytest.raises(neardup.InputError, match="null"):
        neardup.polars.dedup(pl.DataFrame({"id": ["a", "b"], "text": ["x y z", None]}))
    con = duckdb.connect()
    con.execute("CREATE TABLE d AS SELECT * FROM (VALUES ('a', 'x y z'), ('a', 'p q r')) t(id, text)")
    for via in ("sql", "kernel"):
        with pytest.raises(neardup.InputError, match="unique: id 'a'"):
            neardup.duckdb.dedup(con, "d", via=via)
    with pytest.raises(neardup.ConfigError, match="via"):
        neardup.duckdb.dedup(con, "d", via="spark")
    with pytest.raises(neardup.ConfigError, match="tfidf"):
        neardup.duckdb.dedup(con, "d", via="sql", method="simhash", weights="tfidf")
    with pytest.raises(neardup.InputError, match="no column 'body'"):
        neardup.duckdb.dedup(con, "d", text="body")
    with pytest.raises(neardup.ConfigError):
        neardup.duckdb.register(con, method="nope")
    other = neardup.duckdb.register(duckdb.connect(), shingle="word:2")
    sketch = other.sql("SELECT neardup_sketch('a b c d')").fetchall()[0][0]
    neardup.duckdb.register(other)  # replaced: now char:5 sketches
    with pytest.raises(duckdb.Error, match="sketches"):
        other.execute("SELECT neardup_keys(?)", [sketch]).fetchall()
