#!/usr/bin/env bash
# CPU before and after issue 8's redesign (one Document per text, one advisor
# pass), interleaved runs of the two builds (BENCHMARKS.md "The redesign").
#   bash scripts/bench-redesign.sh [ROUNDS]     (default 5)
# Builds commit 6523509 (the last before the redesign) in a git worktree
# under target/, with bench/redesign/before.rs as an example, and this
# checkout with bench/redesign/after.rs; prints the median CPU (user + system)
# of each for: compare + verdict on one Clough pair (2,000 times, per pair),
# and `dedup --explain` at 128 and 4,096 values.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
data=$(cd "${NEARDUP_DATA:-../shared/data}" && pwd)
before=target/before-redesign
[ -d "$before" ] || git worktree add --detach "$before" 6523509 >/dev/null
mkdir -p "$before/examples"
cmp -s bench/redesign/before.rs "$before/examples/redesign.rs" || cp bench/redesign/before.rs "$before/examples/redesign.rs"
(cd "$before" && cargo build --release --features cli -q --bin neardup --example redesign)
cargo build --release --features cli -q --bin neardup --example redesign
model=$PWD/$before/assets/model.json # the same model for both builds
cpu() { /usr/bin/time -f '%U %S' "$@" 2>&1 >/dev/null | tail -1 | awk '{print $1 + $2}'; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}'; }
echo "sums (must agree): before $("$before/target/release/examples/redesign" "$data" "$model") after $(target/release/examples/redesign "$data" "$model")"
run() { # label, before command..., --, after command...
  local label=$1; shift
  local b=() a=(); while [ "$1" != -- ]; do b+=("$1"); shift; done; shift; a=("$@")
  : > /tmp/neardup-redesign-b; : > /tmp/neardup-redesign-a
  for _ in $(seq "$rounds"); do
    cpu "${b[@]}" >> /tmp/neardup-redesign-b
    cpu "${a[@]}" >> /tmp/neardup-redesign-a
  done
  printf '%-34s before %s  after %s   (all rounds: %s | %s)\n' "$label" \
    "$(median < /tmp/neardup-redesign-b)" "$(median < /tmp/neardup-redesign-a)" \
    "$(tr '\n' ' ' < /tmp/neardup-redesign-b)" "$(tr '\n' ' ' < /tmp/neardup-redesign-a)"
}
run "compare+verdict x2000 (s)" "$before/target/release/examples/redesign" "$data" "$model" -- target/release/examples/redesign "$data" "$model"
for n in 128 4096; do
  run "dedup --explain --num-perm $n (s)" "$before/target/release/neardup" dedup --explain --num-perm "$n" -- target/release/neardup dedup --explain --num-perm "$n"
done
