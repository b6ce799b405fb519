"""Texts → MinHash sketches from Python, per core: neardup's batch kernel
against rensa's bulk path, `RMinHash.digest_matrix_from_token_sets`
(BENCHMARKS.md, issue 25). CPU time of all threads; runs interleaved.

The job: docs-bench (5,075 documents, 34 MB), 128 values of character
5-gram sets. rensa takes token sets, so its users build them in Python first
(lower-cased, whitespace collapsed, as in bench/python_dedup.py); its time
is given with and without that step. neardup's includes its whole
normalisation (NFKC, case folding, word segmentation; SPEC.md §1–2).

    .venv/bin/pip install rensa==0.5.0
    .venv/bin/python bench/python_sketch.py [rounds]
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


def shingles(text):
    t = " ".join(text.lower().split())
    return {t[i : i + 5] for i in range(max(len(t) - 4, 1))}


def main():
    import pyarrow as pa
    from rensa import RMinHash

    import neardup

    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    texts = [json.loads(l)["text"] for l in (DATA / "docs-bench" / "docs.jsonl").read_text().splitlines() if l]
    mb = sum(len(t.encode()) for t in texts) / 1e6
    column = pa.array(texts)
    stages = neardup.Stages()
    times = {"neardup sketch_batch": [], "rensa shingle sets + digest matrix": [], "rensa digest matrix only": []}
    for _ in range(rounds):
        t = cpu()
        out = stages.sketch_batch(column)
        times["neardup sketch_batch"].append(cpu() - t)
        assert len(out) == len(texts)
        t = cpu()
        sets = [list(shingles(x)) for x in texts]
        a = cpu()
        m = RMinHash.digest_matrix_from_token_sets(sets, 128, 42)
        b = cpu()
        times["rensa shingle sets + digest matrix"].append(b - t)
        times["rensa digest matrix only"].append(b - a)
        del m, sets
    base = sorted(times["rensa shingle sets + digest matrix"])[rounds // 2]
    print(f"docs-bench, {len(texts)} documents, {mb:.1f} MB; median of {rounds} interleaved rounds; CPU of all threads")
    for name, ts in times.items():
        t = sorted(ts)[rounds // 2]
        print(f"  {name:<36} {t:6.3f} s CPU  {mb / t:6.1f} MB per CPU-second  {t / base:.3f}x")


if __name__ == "__main__":
    main()
