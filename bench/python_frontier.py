"""The frontier (BENCHMARKS.md, issue 36): `neardup.dedup` against the fastest
Python near-duplicate libraries, each as its users write it, on the same
job, CPU time of the process (every thread, the peers' OpenMP threads
included), median of interleaved rounds, with precision, recall and F1
beside each.

The job: docs-bench (5,075 documents, 543 planted pairs), character
5-grams, 128 values, LSH at 0.5, pairs kept when their estimate reaches 0.5.

- `neardup.dedup` on Arrow columns (default options: the same job);
- rensa 0.5.0 full-set R-MinHash: Python sets of 5-grams, `RMinHash` each,
  `RMinHashLSH(threshold=0.5, num_perm=128, num_bands=16)`, candidates
  verified by `jaccard` (its README's loop);
- rensa 0.5.0 "rho": the bulk sampled sketch
  `RMinHash.digest_matrix_from_token_sets_rho` and the one-shot
  `RMinHashLSH.query_duplicate_flags_matrix_one_shot` — it answers which
  rows are duplicates, not pairs, so only the flags' figures apply;
- FastSketchLSH 1.0.1: Python sets of 5-grams hashed to 64 bits (Python's
  `hash`, as its prehashed CSR input asks), `FastSimilaritySketch(128)
  .batch_csr(data, indptr, prehashed=True)`, `LSH(128, 16)` inserted and
  queried in one batch, candidates verified by `estimate_jaccard`.

Pairs: P/R/F1 over the planted pairs. Flags: a document is flagged when it
is in a pair found (rho: flagged by the library); P/R/F1 over the documents
in a planted pair.

    .venv/bin/pip install rensa==0.5.0 FastSketchLSH==1.0.1
    .venv/bin/python bench/python_frontier.py [ROUNDS]
"""

import json
import os
import resource
import statistics
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa

import python_dedup  # bench/, beside this script
from python_dedup import shingles

REPO = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("NEARDUP_DATA", REPO.parent / "shared" / "data"))


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def prf(found, truth):
    tp = len(found & truth)
    p, r = tp / max(len(found), 1), tp / len(truth)
    return p, r, (2 * p * r / (p + r) if tp else 0.0)


def run_neardup(ids, texts, table):
    import neardup

    pairs = neardup.dedup(table.column("text"), ids=table.column("id")).pairs
    return {(min(a, b), max(a, b)) for a, b, _ in pairs}, None


def run_rensa_full(ids, texts, table):
    # The same loop as bench/python_dedup.py (issue 25's comparison).
    return python_dedup.run_rensa(ids, texts), None


def run_rensa_rho(ids, texts, table):
    from rensa import RMinHash, RMinHashLSH

    matrix = RMinHash.digest_matrix_from_token_sets_rho([list(shingles(t)) for t in texts], 128, 42)
    flags = RMinHashLSH(threshold=0.5, num_perm=128, num_bands=16).query_duplicate_flags_matrix_one_shot(matrix)
    return None, {ids[i] for i, f in enumerate(flags) if f}


def run_fastsketch(ids, texts, table):
    from FastSketchLSH import LSH, FastSimilaritySketch, estimate_jaccard

    sets = [shingles(t) for t in texts]
    indptr = np.zeros(len(sets) + 1, dtype=np.uint64)
    indptr[1:] = np.cumsum([len(s) for s in sets])
    data = np.fromiter((hash(g) & 0xFFFFFFFFFFFFFFFF for s in sets for g in s), dtype=np.uint64, count=int(indptr[-1]))
    sketches = FastSimilaritySketch(128).batch_csr(data, indptr, prehashed=True)
    lsh = LSH(128, 16)
    lsh.insert(sketches)
    found = set()
    for i, cands in enumerate(lsh.query(sketches)):
        for j in cands:
            if j != i and estimate_jaccard(sketches[i], sketches[j]) >= 0.5:
                found.add((min(ids[i], ids[j]), max(ids[i], ids[j])))
    return found, None


RUNS = {
    "neardup.dedup": run_neardup,
    "rensa 0.5.0 full-set RMinHash + RMinHashLSH": run_rensa_full,
    "rensa 0.5.0 rho (digest_matrix_from_token_sets_rho + one-shot flags)": run_rensa_rho,
    "FastSketchLSH 1.0.1 (batch_csr + LSH)": run_fastsketch,
}


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    rows = [json.loads(line) for line in (DATA / "docs-bench" / "docs.jsonl").read_text().splitlines() if line]
    ids, texts = [r["id"] for r in rows], [r["text"] for r in rows]
    table = pa.table({"id": ids, "text": texts})
    truth = set()
    for line in (DATA / "docs-bench" / "pairs.tsv").read_text().splitlines()[1:]:
        a, b = line.split("\t")[:2]
        truth.add((min(a, b), max(a, b)))
    truth_docs = {d for p in truth for d in p}
    times = {k: [] for k in RUNS}
    results = {}
    for _ in range(rounds):
        for name, run in RUNS.items():
            t = cpu()
            results[name] = run(ids, texts, table)
            times[name].append(cpu() - t)
    base = statistics.median(times["neardup.dedup"])
    print(f"docs-bench: {len(rows)} documents, {len(truth)} planted pairs; median of {rounds} interleaved rounds, CPU of every thread")
    print("| | CPU | ratio | pairs P / R / F1 | flags P / R / F1 |")
    print("|---|---|---|---|---|")
    for name in RUNS:
        pairs, flags = results[name]
        if pairs is not None:
            flags = {d for p in pairs for d in p}
            pp = "%.3f / %.3f / %.3f" % prf(pairs, truth)
        else:
            pp = "— (flags only)"
        fp = "%.3f / %.3f / %.3f" % prf(flags, truth_docs)
        t = statistics.median(times[name])
        print(f"| {name} | {t:.2f} s | {t / base:.1f}× | {pp} | {fp} |")


if __name__ == "__main__":
    main()
