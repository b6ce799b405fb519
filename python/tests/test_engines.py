"""Dedup on Spark (local[2]) and Ray (2 CPUs): exactly the clusters of
neardup.dedup on the same rows, whatever the number of partitions, and
docs-bench's planted pairs found."""

import itertools
import json
import os
import sys
from pathlib import Path

import pytest

import neardup

REPO = Path(__file__).resolve().parents[2]
DATA = Path(os.environ.get("NEARDUP_DATA", REPO.parent / "shared" / "data"))


def docs_bench(limit=None):
    rows = [json.loads(line) for line in (DATA / "docs-bench" / "docs.jsonl").read_text().splitlines() if line]
    truth = set()
    for line in (DATA / "docs-bench" / "pairs.tsv").read_text().splitlines()[1:]:
        a, b = line.split("\t")[:2]
        truth.add((min(a, b), max(a, b)))
    return rows[:limit] if limit else rows, truth


def expected(rows):
    """id -> (cluster representative, keep), from the one-machine pipeline."""
    result = neardup.dedup([r["text"] for r in rows], ids=[r["id"] for r in rows])
    rep = {r["id"]: r["id"] for r in rows}
    for c in result.clusters:
        for i in c:
            rep[i] = c[0]
    return {i: (c, c == i) for i, c in rep.items()}, len(result.clusters)


def f1_of_clusters(got, truth):
    groups = {}
    for i, (c, _) in got.items():
        groups.setdefault(c, []).append(i)
    found = {(min(a, b), max(a, b)) for g in groups.values() for a, b in itertools.combinations(g, 2)}
    tp = len(found & truth)
    p, r = tp / len(found), tp / len(truth)
    return 2 * p * r / (p + r)


@pytest.fixture(scope="module")
def spark():
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    s = (
        SparkSession.builder.master("local[2]")
        .appName("neardup-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.driver.memory", "2g")
        .getOrCreate()
    )
    s.sparkContext.setLogLevel("ERROR")
    yield s
    s.stop()


@pytest.fixture(scope="module")
def ray_local():
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield ray
    ray.shutdown()


def spark_clusters(spark, rows, partitions, **options):
    import neardup.spark

    df = spark.createDataFrame(spark.sparkContext.parallelize([(r["id"], r["text"]) for r in rows], partitions), ["id", "text"])
    out = neardup.spark.dedup(df, **options).collect()
    assert [r["id"] for r in out] == [r["id"] for r in rows], "rows in input order"
    return {r["id"]: (r["cluster"], r["keep"]) for r in out}


def ray_clusters(ray, rows, partitions, **options):
    import neardup.ray

    ds = ray.data.from_items([{"id": r["id"], "text": r["text"]} for r in rows], override_num_blocks=partitions)
    out = neardup.ray.dedup(ds, **options).take_all()
    assert [r["id"] for r in out] == [r["id"] for r in rows], "rows in input order"
    return {r["id"]: (r["cluster"], r["keep"]) for r in out}


def test_spark_finds_docs_bench_pairs_with_the_one_machine_clusters(spark):
    rows, truth = docs_bench()
    want, n = expected(rows)
    got = spark_clusters(spark, rows, 4)
    assert got == want
    assert n > 500
    assert f1_of_clusters(got, truth) >= 0.95


def test_ray_finds_docs_bench_pairs_with_the_one_machine_clusters(ray_local):
    rows, truth = docs_bench()
    want, _ = expected(rows)
    got = ray_clusters(ray_local, rows, 4)
    assert got == want
    assert f1_of_clusters(got, truth) >= 0.95


def test_spark_and_ray_agree_with_one_machine_for_1_4_7_partitions(spark, ray_local):
    rows, _ = docs_bench(700)
    want, n = expected(rows)
    assert n >= 5, "the sample has planted pairs"
    for partitions in (1, 4, 7):
        assert spark_clusters(spark, rows, partitions) == want, f"spark, {partitions} partitions"
        assert ray_clusters(ray_local, rows, partitions) == want, f"ray, {partitions} partitions"
    # Another method: SimHash, verified.
    result = neardup.dedup([r["text"] for r in rows], ids=[r["id"] for r in rows], method="simhash")
    rep = {r["id"]: r["id"] for r in rows}
    for c in result.clusters:
        for i in c:
            rep[i] = c[0]
    want = {i: (c, c == i) for i, c in rep.items()}
    assert spark_clusters(spark, rows, 3, method="simhash") == want


def test_bad_options_fail_before_any_job(spark):
    import neardup.spark

    df = spark.createDataFrame([("a", "text")], ["id", "text"])
    with pytest.raises(ValueError, match="threshold"):
        neardup.spark.dedup(df, threshold=2.0)
    with pytest.raises(TypeError, match="unknown field `tresh`"):
        neardup.spark.dedup(df, tresh=0.5)


def copy_groups():
    """Groups of 1, 2, 3, 50 and 1,000 identical rows of five unrelated
    docs-bench texts, interleaved; ids g{group}c{copy}."""
    texts = [r["text"] for r in docs_bench(5)[0]]
    sizes = [1, 2, 3, 50, 1000]
    rows = []
    for c in range(1000):
        for g, n in enumerate(sizes):
            if c < n:
                rows.append({"id": f"g{g}c{c}", "text": texts[g]})
    return rows


def test_spark_and_ray_give_one_row_per_row_for_groups_of_1_2_3_50_and_1000(spark, ray_local):
    """Issue 35: Ray gave 8 rows for 3 identical ones; each engine gives one
    row per input row, every copy in its first copy's cluster."""
    rows = copy_groups()
    want = {r["id"]: (r["id"].split("c")[0] + "c0", r["id"].endswith("c0")) for r in rows}
    got_one, n = expected(rows)
    assert got_one == want and n == 4
    assert spark_clusters(spark, rows, 3) == want
    assert ray_clusters(ray_local, rows, 3) == want
    # SimHash too (no bucket cap: the copies are what keeps it linear).
    assert spark_clusters(spark, rows, 2, method="simhash") == want


def test_engines_refuse_null_and_repeated_ids_and_name_a_missing_column(spark, ray_local):
    import neardup.ray
    import neardup.spark

    for rows, match in (
        ([("a", "x y z"), (None, "x y z")], "ids must not be null"),
        ([("a", "x y z"), ("b", None)], "texts must not be null"),
        ([("a", "x y z"), ("a", "p q r")], "ids must be unique: id 'a'"),
    ):
        df = spark.createDataFrame(rows, "id string, text string")
        with pytest.raises(ValueError, match=match):
            neardup.spark.dedup(df)
        ds = ray_local.data.from_items([{"id": i, "text": t} for i, t in rows])
        with pytest.raises(ValueError, match=match):
            neardup.ray.dedup(ds)
    ds = ray_local.data.from_items([{"id": "a", "body": "x"}])
    with pytest.raises(ValueError, match="no column 'text'"):
        neardup.ray.dedup(ds)


def test_ray_takes_an_empty_dataset_and_columns_named_pos(ray_local):
    import neardup.ray

    empty = ray_local.data.from_items([{"id": "a", "text": "x"}]).filter(lambda r: False)
    assert neardup.ray.dedup(empty).take_all() == []
    rows = [{"pos": f"r{i}", "text": t, "_pos": 7} for i, t in enumerate(["one two three four five six"] * 3 + ["other words here now"])]
    out = neardup.ray.dedup(ray_local.data.from_items(rows), id_col="pos").take_all()
    assert [(r["id"], r["cluster"], r["keep"]) for r in out] == [
        ("r0", "r0", True),
        ("r1", "r0", False),
        ("r2", "r0", False),
        ("r3", "r3", True),
    ]
