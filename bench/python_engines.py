"""neardup.spark.dedup (local[2]) and neardup.ray.dedup (2 CPUs) on 100 k
documents: wall time, shuffle bytes per document, peak memory, and the
planted pairs found (BENCHMARKS.md, issue 25).

The documents: `node scripts/make-million.mjs 100000 target/engines-100k`
(50 random words each, every 1,000th followed by a copy with two words
changed: 100 planted pairs). Default options (MinHash LSH, char:5, 128
values, threshold 0.5).

- Wall time: from the call to the last row collected on the driver.
- Shuffle bytes: Spark's shuffle write of every stage of the job (its
  REST API on the driver's own UI, localhost); Ray's: the bytes of the datasets its groupbys repartition
  (the keyed rows, the candidate pairs, the edges of each
  large/small-star round), from
  `Dataset.size_bytes()` of each materialised input; the inputs of its
  joins (both sides) and of its sort are counted the same way, in a second
  run (the first gives the time and memory).
- Peak memory: the largest sum of the resident sets of this process and
  every process it started (JVM, Python workers, raylet, Ray workers),
  polled every 0.2 s; shared pages are counted once per process, so it is an
  upper bound.

    node scripts/make-million.mjs 100000 target/engines-100k
    .venv/bin/python bench/python_engines.py spark|ray [path]
"""

import json
import os
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def tree_rss(root):
    """Resident bytes of process `root` and its descendants (Linux /proc)."""
    parent, rss = {}, {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                parent[int(d)] = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{d}/statm") as f:
                rss[int(d)] = int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, ValueError, IndexError):
            pass
    total = 0
    for pid in rss:
        p = pid
        while p and p != root:
            p = parent.get(p)
        if p == root:
            total += rss[pid]
    return total


class PeakRss:
    """Polls the resident set of this process tree."""

    def __init__(self):
        self.peak, self.stop = 0, False
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while not self.stop:
            self.peak = max(self.peak, tree_rss(os.getpid()))
            time.sleep(0.2)

    def close(self):
        self.stop = True
        self.thread.join()
        return self.peak


def load(path):
    rows = [json.loads(l) for l in Path(path).read_text().splitlines() if l]
    return rows


def found_pairs(out):
    """Planted pairs (m i, m i+1 for i % 1000 == 0) found in (id, cluster) rows."""
    groups = {}
    for i, c, _ in out:
        groups.setdefault(c, []).append(i)
    pairs = {tuple(sorted(g)) for g in groups.values() if len(g) == 2}
    big = sum(1 for g in groups.values() if len(g) > 2)
    return pairs, big


def report(name, n, wall, shuffle, peak, out):
    pairs, big = found_pairs(out)
    planted = {(f"m{i}", f"m{i + 1}") for i in range(0, n, 1000) if i + 1 < n}
    planted = {tuple(sorted(p)) for p in planted}
    tp = len(pairs & planted)
    print(f"{name}: {n} documents, wall {wall:.1f} s, shuffle {shuffle / 1e6:.1f} MB ({shuffle / n:.0f} bytes/doc), "
          f"peak memory {peak / 1e9:.2f} GB; clusters of 2: {len(pairs)}, larger: {big}; planted pairs found {tp}/{len(planted)}")


def run_spark(path):
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    import neardup.spark

    peak = PeakRss()
    spark = (
        SparkSession.builder.master("local[2]")
        .appName("neardup-bench")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "8")
        .config("spark.driver.memory", "4g")
        .getOrCreate()
    )
    rows = load(path)
    df = spark.createDataFrame([(r["id"], r["text"]) for r in rows], "id string, text string").repartition(4).cache()
    df.count()
    before = {s["stageId"] for s in _stages(spark)}
    start = time.perf_counter()
    out = [(r["id"], r["cluster"], r["keep"]) for r in neardup.spark.dedup(df).collect()]
    wall = time.perf_counter() - start
    shuffle = sum(s["shuffleWriteBytes"] for s in _stages(spark) if s["stageId"] not in before)
    report("spark local[2], 4 input partitions", len(rows), wall, shuffle, peak.close(), out)
    spark.stop()


def _stages(spark):
    """Every stage attempt of the application, from Spark's REST API on the
    driver's own UI (localhost)."""
    import urllib.request

    sc = spark.sparkContext
    url = f"{sc.uiWebUrl}/api/v1/applications/{sc.applicationId}/stages"
    with urllib.request.urlopen(url) as r:
        return json.load(r)


def run_ray(path):
    import ray

    import neardup.ray

    peak = PeakRss()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    rows = load(path)
    ds = ray.data.from_items([{"id": r["id"], "text": r["text"]} for r in rows]).repartition(4).materialize()
    start = time.perf_counter()
    out = [(r["id"], r["cluster"], r["keep"]) for r in neardup.ray.dedup(ds).take_all()]
    wall = time.perf_counter() - start
    peak = peak.close()
    # A second run counts the bytes each shuffle takes in (each input
    # materialised first, so this run's time is not the one reported).
    sizes = []
    patched = {name: getattr(ray.data.Dataset, name) for name in ("groupby", "join", "sort")}

    def counting(name):
        def method(self, *args, **kwargs):
            inputs = [self.materialize()]
            if name == "join":
                inputs.append(args[0].materialize())
                args = (inputs[1], *args[1:])
            sizes.append(sum(d.size_bytes() for d in inputs))
            return patched[name](inputs[0], *args, **kwargs)

        return method

    for name in patched:
        setattr(ray.data.Dataset, name, counting(name))
    neardup.ray.dedup(ds).take_all()
    for name, method in patched.items():
        setattr(ray.data.Dataset, name, method)
    report("ray, 2 CPUs, 4 input blocks", len(rows), wall, sum(sizes), peak, out)
    ray.shutdown()


if __name__ == "__main__":
    which = sys.argv[1]
    path = sys.argv[2] if len(sys.argv) > 2 else REPO / "target" / "engines-100k" / "docs.jsonl"
    {"spark": run_spark, "ray": run_ray}[which](path)
