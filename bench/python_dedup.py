"""neardup.dedup from Python against rensa and datasketch doing the same job
as their users write it, CPU time in one run (BENCHMARKS.md, issue 25).

The job: docs-bench (5,075 documents, 34 MB), character 5-gram sets, 128
values, LSH at threshold 0.5, pairs kept when their estimate reaches 0.5;
precision, recall and F1 over the planted pairs.

    .venv/bin/pip install rensa==0.5.0 datasketch==2.0.0
    .venv/bin/python bench/python_dedup.py
"""

import json
import os
import resource
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("NEARDUP_DATA", REPO.parent / "shared" / "data"))


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)  # every thread of the process
    return r.ru_utime + r.ru_stime


def f1(found, truth):
    tp = len(found & truth)
    p, r = tp / max(len(found), 1), tp / len(truth)
    return p, r, (2 * p * r / (p + r) if tp else 0.0)


def shingles(text):
    t = " ".join(text.lower().split())
    return {t[i : i + 5] for i in range(max(len(t) - 4, 1))}


def run_neardup(ids, texts):
    import neardup

    return {(min(a, b), max(a, b)) for a, b, _ in neardup.dedup(texts, ids=ids).pairs}


def run_rensa(ids, texts):
    from rensa import RMinHash, RMinHashLSH

    lsh = RMinHashLSH(threshold=0.5, num_perm=128, num_bands=16)
    sigs = []
    found = set()
    for i, t in enumerate(texts):
        m = RMinHash(num_perm=128, seed=42)
        m.update(list(shingles(t)))
        for j in lsh.query(m):
            if sigs[j].jaccard(m) >= 0.5:
                found.add((min(ids[i], ids[j]), max(ids[i], ids[j])))
        lsh.insert(i, m)
        sigs.append(m)
    return found


def run_datasketch(ids, texts):
    from datasketch import MinHash, MinHashLSH

    lsh = MinHashLSH(threshold=0.5, num_perm=128)
    sigs = {}
    found = set()
    for i, t in enumerate(texts):
        m = MinHash(num_perm=128, seed=1)
        m.update_batch([s.encode() for s in shingles(t)])
        for j in lsh.query(m):
            if sigs[j].jaccard(m) >= 0.5:
                found.add((min(ids[i], j), max(ids[i], j)))
        lsh.insert(ids[i], m)
        sigs[ids[i]] = m
    return found


def main():
    rows = [json.loads(line) for line in (DATA / "docs-bench" / "docs.jsonl").read_text().splitlines() if line]
    truth = set()
    for line in (DATA / "docs-bench" / "pairs.tsv").read_text().splitlines()[1:]:
        a, b = line.split("\t")[:2]
        truth.add((min(a, b), max(a, b)))
    ids, texts = [r["id"] for r in rows], [r["text"] for r in rows]
    which = sys.argv[1:] or ["neardup", "rensa", "datasketch"]
    results = {}
    for name in which:
        start = cpu()
        found = globals()[f"run_{name}"](ids, texts)
        results[name] = (cpu() - start, *f1(found, truth))
    base = results.get("rensa", (None,))[0]
    print(f"docs-bench, {len(rows)} documents; CPU seconds (all threads), precision, recall, F1")
    for name, (t, p, r, f) in results.items():
        ratio = f"  {t / base:.3f}x rensa" if base else ""
        print(f"  {name:<11} {t:7.2f} s  P {p:.3f}  R {r:.3f}  F1 {f:.3f}{ratio}")


if __name__ == "__main__":
    main()
