#!/usr/bin/env bash
# Two builds of a command against each other, interleaved: N pairs of runs
# (A then B, then B then A, in turn), each run's CPU time (perf stat's
# task-clock: user + system, all threads), and the median of B's time over
# A's in the same pair, with its quartiles. On this shared machine the speed
# drifts by tens of per cent over seconds; a pair's two runs see the same
# drift, so the ratio of a pair is steadier than either time.
#   bash scripts/bench-pairs.sh BINARY_A BINARY_B N ARGS...
# e.g. the commit before (built in a worktree of its own, with a target
# folder of its own) against this one:
#   git worktree add /tmp/base HEAD~1
#   (cd /tmp/base && CARGO_TARGET_DIR=/tmp/base-target cargo build --release --features cli)
#   cargo build --release --features cli
#   bash scripts/bench-pairs.sh /tmp/base-target/release/neardup target/release/neardup 30 \
#     dedup ../shared/data/docs-bench/docs.jsonl --shingle word:5 -o /dev/null
set -euo pipefail
[ $# -ge 4 ] || { sed -n 2,16p "$0" >&2; exit 2; }
a=$1; b=$2; n=$3; shift 3
command -v perf >/dev/null || { echo "bench-pairs: perf not found" >&2; exit 1; }
cpu() { perf stat -x, -e task-clock "$@" 2>&1 >/dev/null | awk -F, '/task-clock/ { print $1 }'; }
for i in $(seq 1 "$n"); do
  if (( i % 2 )); then x=$(cpu "$a" "$@"); y=$(cpu "$b" "$@"); else y=$(cpu "$b" "$@"); x=$(cpu "$a" "$@"); fi
  echo "$x $y"
done | python3 -c '
import statistics as st, sys
rows = [tuple(map(float, l.split())) for l in sys.stdin if l.strip()]
a = [r[0] for r in rows]; b = [r[1] for r in rows]
q = sorted(y / x for x, y in rows); n = len(q)
print(f"A: median {st.median(a):.1f} ms, fastest {min(a):.1f} ms; B: median {st.median(b):.1f} ms, fastest {min(b):.1f} ms; "
      f"B/A in a pair: median {st.median(q):.3f} (quartiles {q[n // 4]:.3f}-{q[3 * n // 4]:.3f}), {n} pairs")'
