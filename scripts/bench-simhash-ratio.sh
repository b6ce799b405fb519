#!/usr/bin/env bash
# Issue 50 item 3's check on real prose, interleaved: `neardup dedup` of
# docs-bench with `--method simhash` at its defaults, then at the defaults
# (MinHash), ROUNDS times in turn, each run's CPU time (perf stat's
# task-clock: user + system, all threads). Prints each method's median, the
# ratio of the medians and the quartiles and range of the rounds' ratios
# (target: at most 3×), then SimHash's precision, recall and F1 against
# docs-bench's labelled pairs (target: F1 at least 0.98). A round's two runs
# see the same drift of this shared machine's speed, so its ratio is
# steadier than either time (BENCHMARKS.md, "Fewer bytes a word in
# SimHash's buckets: tried, dropped").
#   bash scripts/bench-simhash-ratio.sh [ROUNDS]   (default 16; about 1 s a round)
# NEARDUP_DATA as for the tests (default ../shared/data).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-16}"
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { sed -n 2,13p "$0" >&2; exit 2; }
data="${NEARDUP_DATA:-../shared/data}"
docs="$data/docs-bench/docs.jsonl"
truth="$data/docs-bench/pairs.tsv"
[ -f "$docs" ] && [ -f "$truth" ] || { echo "bench-simhash-ratio: $docs or $truth not found (set NEARDUP_DATA)" >&2; exit 2; }
command -v perf >/dev/null || { echo "bench-simhash-ratio: perf not found" >&2; exit 1; }
cargo build --release --features cli --quiet
bin=target/release/neardup
cpu() { perf stat -x, -e task-clock "$bin" dedup "$docs" "$@" -o /dev/null 2>&1 >/dev/null | awk -F, '/task-clock/ { print $1 }'; }
for _ in $(seq 1 "$rounds"); do
  echo "$(cpu --method simhash) $(cpu)"
done | python3 -c '
import statistics as st, sys
rows = [tuple(map(float, l.split())) for l in sys.stdin if l.strip()]
s = [r[0] for r in rows]; m = [r[1] for r in rows]
q = sorted(a / b for a, b in rows); n = len(q)
print(f"simhash: median {st.median(s):.0f} ms of CPU; the default method: {st.median(m):.0f} ms; "
      f"ratio of the medians {st.median(s) / st.median(m):.2f} (target <= 3); rounds: quartiles "
      f"{q[n // 4]:.2f}-{q[3 * n // 4]:.2f}, range {q[0]:.2f}-{q[-1]:.2f}, {n} rounds")'
summary=$(mktemp)
trap 'rm -f "$summary"' EXIT
"$bin" dedup "$docs" --method simhash --truth "$truth" --summary "$summary" -o /dev/null 2>/dev/null
python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["truth"]
p, r, f = t["precision"], t["recall"], t["f1"]
print(f"simhash on docs-bench: precision {p:.3f}, recall {r:.3f}, F1 {f:.3f} (target >= 0.98)")' "$summary"
