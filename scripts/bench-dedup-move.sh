#!/usr/bin/env bash
# CPU of `neardup dedup` before and after its pipeline moved into the core
# (issue 22), interleaved runs of the two builds on docs-bench (BENCHMARKS.md).
#   bash scripts/bench-dedup-move.sh [ROUNDS]     (default 7)
# Builds the CLI of commit cb9c57c (the last before the move) in a git
# worktree under target/, and this checkout's CLI; prints the median CPU
# (user + system) of each, for the default settings and three others.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-7}
data=${NEARDUP_DATA:-../shared/data}
before=target/before-dedup-move
if [ ! -x "$before/target/release/neardup" ]; then
  [ -d "$before" ] || git worktree add --detach "$before" cb9c57c >/dev/null
  (cd "$before" && cargo build --release --features cli -q)
fi
cargo build --release --features cli -q
cpu() { /usr/bin/time -f '%U %S' "$@" -o /dev/null 2>&1 >/dev/null | tail -1 | awk '{print $1 + $2}'; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}'; }
for opts in "" "--method simhash" "--shingle word:5" "--verify"; do
  : > /tmp/neardup-bench-before; : > /tmp/neardup-bench-after
  for _ in $(seq "$rounds"); do
    cpu "$before/target/release/neardup" dedup "$data/docs-bench/docs.jsonl" $opts >> /tmp/neardup-bench-before
    cpu target/release/neardup dedup "$data/docs-bench/docs.jsonl" $opts >> /tmp/neardup-bench-after
  done
  b=$(median < /tmp/neardup-bench-before); a=$(median < /tmp/neardup-bench-after)
  printf '%-20s before %.2f s  after %.2f s  (%.2fx)\n' "${opts:-defaults}" "$b" "$a" "$(echo "$a / $b" | bc -l)"
done
