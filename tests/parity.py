"""The Python side of the parity test (tests/js/parity.test.mjs): the
clusters and sketches of one collection from every Python surface, as JSON
on stdout.

    .venv/bin/python tests/parity.py docs.jsonl

For each surface — `neardup.dedup`, `neardup.polars.dedup` and
`neardup.duckdb.dedup` (by the kernel and by the SQL recipe) —
`{"clusters": [[id, …], …]}` (clusters of two or more, each in input order,
ordered by first member: `neardup dedup --clusters`'s order); and the
sketches, hex, from `Stages.sketch`, the Polars expression and the DuckDB
function. Default options. `neardup.spark.dedup` and `neardup.ray.dedup`
are held to `neardup.dedup` in `python/tests/test_engines.py` (docs-bench,
1, 4 and 7 partitions, groups of 1, 2, 3, 50 and 1,000 copies), on the
Spark session and Ray runtime those tests start once; starting both again
here took 53 s, mostly waiting.
"""

import json
import sys

import duckdb
import polars as pl
import pyarrow as pa

import neardup
import neardup.duckdb
import neardup.polars


def clusters_of(ids, reps):
    """Clusters of two or more from (id, representative id) rows in input order."""
    groups = {}
    for i, c in zip(ids, reps):
        groups.setdefault(c, []).append(i)
    return sorted((g for g in groups.values() if len(g) > 1), key=lambda g: ids.index(g[0]))


def main(path):
    rows = [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
    ids, texts = [r["id"] for r in rows], [r["text"] for r in rows]
    table = pa.table({"id": ids, "text": texts})
    out = {}
    out["python"] = {"clusters": neardup.dedup(texts, ids=ids).clusters}
    frame = neardup.polars.dedup(pl.from_arrow(table))
    out["polars"] = {"clusters": clusters_of(ids, list(frame["cluster"]))}
    con = duckdb.connect()
    con.register("src", table)
    con.execute("CREATE TABLE docs AS SELECT * FROM src")
    for key, via in (("duckdb", "kernel"), ("duckdb_sql", "sql")):
        got = neardup.duckdb.dedup(con, "docs", via=via).fetchall()
        out[key] = {"clusters": clusters_of([g[0] for g in got], [g[1] for g in got])}

    sample = texts[:50]
    out["sketches"] = {
        "python": [s.hex() for s in neardup.Stages().sketch(sample)],
        "polars": [s.hex() for s in pl.DataFrame({"t": sample}).select(pl.col("t").neardup.sketch())["t"]],
        "duckdb": [
            bytes(s).hex()
            for (s,) in neardup.duckdb.register(duckdb.connect())
            .execute("SELECT neardup_sketch(t) FROM (SELECT unnest(?) AS t, generate_subscripts(?, 1) AS i) ORDER BY i", [sample, sample])
            .fetchall()
        ],
    }
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])
