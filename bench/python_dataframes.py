"""Dedup of docs-bench from Polars and DuckDB against neardup.dedup: CPU time of
the process (every thread), interleaved rounds, median; F1 over the planted
pairs and whether the clusters are exactly neardup.dedup's (BENCHMARKS.md,
issue 36).

    .venv/bin/python bench/python_dataframes.py [ROUNDS]

The frames are built before the clock starts (a data engineer's table is
already in the frame); each run includes what a user's call does: Polars
`neardup.polars.dedup(df)`, DuckDB `neardup.duckdb.dedup(con, table)` by the
kernel and by the recipe's SQL, and reading the result back as Arrow.
"""

import itertools
import json
import os
import resource
import statistics
import sys
from pathlib import Path

import duckdb
import polars as pl
import pyarrow as pa

import neardup
import neardup.duckdb
import neardup.polars

REPO = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("NEARDUP_DATA", REPO.parent / "shared" / "data"))


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def load():
    rows = [json.loads(line) for line in (DATA / "docs-bench" / "docs.jsonl").read_text().splitlines() if line]
    truth = set()
    for line in (DATA / "docs-bench" / "pairs.tsv").read_text().splitlines()[1:]:
        a, b = line.split("\t")[:2]
        truth.add((min(a, b), max(a, b)))
    return rows, truth


def groups_of(reps):
    """id -> representative, as clusters of two or more."""
    groups = {}
    for i, c in reps.items():
        groups.setdefault(c, []).append(i)
    return sorted(sorted(g) for g in groups.values() if len(g) > 1)


def f1(groups, truth):
    found = {(min(a, b), max(a, b)) for g in groups for a, b in itertools.combinations(g, 2)}
    tp = len(found & truth)
    p, r = tp / len(found), tp / len(truth)
    return p, r, 2 * p * r / (p + r)


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    rows, truth = load()
    ids, texts = [r["id"] for r in rows], [r["text"] for r in rows]
    table = pa.table({"id": ids, "text": texts})
    df = pl.from_arrow(table)
    con = duckdb.connect()
    con.register("src", table)
    con.execute("CREATE TABLE docs AS SELECT * FROM src")

    def one():
        r = neardup.dedup(table.column("text"), ids=table.column("id"))
        return groups_of({i: c[0] for c in r.clusters for i in c})

    def polars():
        out = neardup.polars.dedup(df)
        return groups_of(dict(zip(out["id"], out["cluster"])))

    def polars_lazy():
        out = neardup.polars.dedup(df.lazy()).collect()
        return groups_of(dict(zip(out["id"], out["cluster"])))

    def sql():
        out = neardup.duckdb.dedup(con, "docs", via="sql").to_arrow_table()
        return groups_of(dict(zip(out.column("id").to_pylist(), out.column("cluster").to_pylist())))

    def kernel():
        out = neardup.duckdb.dedup(con, "docs").to_arrow_table()
        return groups_of(dict(zip(out.column("id").to_pylist(), out.column("cluster").to_pylist())))

    runs = {"neardup.dedup": one, "neardup.polars.dedup (DataFrame)": polars,
            "neardup.polars.dedup (LazyFrame)": polars_lazy, "neardup.duckdb.dedup (via kernel)": kernel,
            "neardup.duckdb.dedup (via SQL recipe)": sql}
    times = {k: [] for k in runs}
    found = {}
    for _ in range(rounds):
        for name, f in runs.items():
            t = cpu()
            found[name] = f()
            times[name].append(cpu() - t)
    base = statistics.median(times["neardup.dedup"])
    print(f"docs-bench: {len(rows)} documents, {len(truth)} planted pairs; median of {rounds} interleaved rounds")
    print("| | CPU | P | R | F1 | same clusters as neardup.dedup | ratio |")
    print("|---|---|---|---|---|---|---|")
    for name in runs:
        p, r, f = f1(found[name], truth)
        same = found[name] == found["neardup.dedup"]
        t = statistics.median(times[name])
        print(f"| `{name}` | {t:.2f} s | {p:.3f} | {r:.3f} | {f:.3f} | {'yes' if same else 'NO'} | {t / base:.2f}× |")


if __name__ == "__main__":
    main()
