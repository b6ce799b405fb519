#!/usr/bin/env bash
# CPU of `neardup compare` with the learned verdict: the shipped model
# (format 2: LCS, Greedy String Tiling and passage features) against the
# format 1 model shipped before it (tests/golden/model-format1.json),
# interleaved (BENCHMARKS.md "The verdict's cost").
#   bash scripts/bench-verdict.sh [ROUNDS]     (default 3)
# Inputs, written under target/bench-verdict/: 2 MB of docs-bench prose as B
# and a copy with 5 % of its words replaced as A; and "the " 200,000 times
# as both (Greedy String Tiling's worst case: one repeated token).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
data=${NEARDUP_DATA:-../shared/data}
out=target/bench-verdict
mkdir -p "$out"
python3 - "$data/docs-bench/docs.jsonl" "$out" <<'PY'
import json, random, sys
docs = [json.loads(l)["text"] for l in open(sys.argv[1])]
random.seed(1)
b, i = "", 0
while len(b) < 2_000_000:
    b += docs[i] + "\n\n"
    i += 1
a = " ".join(w if random.random() > 0.05 else "zzz" for w in b.split(" "))
open(f"{sys.argv[2]}/big_a.txt", "w").write(a)
open(f"{sys.argv[2]}/big_b.txt", "w").write(b)
open(f"{sys.argv[2]}/rep.txt", "w").write("the " * 200000)
PY
cargo build --release --features cli -q
cpu() { /usr/bin/time -f '%U %S' "$@" 2>&1 >/dev/null | tail -1 | awk '{print $1 + $2}'; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}'; }
for pair in "big_a.txt big_b.txt" "rep.txt rep.txt"; do
  set -- $pair
  : > /tmp/neardup-verdict-old; : > /tmp/neardup-verdict-new
  for _ in $(seq "$rounds"); do
    cpu target/release/neardup compare "$out/$1" "$out/$2" --json --model tests/golden/model-format1.json >> /tmp/neardup-verdict-old
    cpu target/release/neardup compare "$out/$1" "$out/$2" --json >> /tmp/neardup-verdict-new
  done
  printf '%-22s format 1 model %s s   shipped model %s s\n' "$1 / $2" "$(median < /tmp/neardup-verdict-old)" "$(median < /tmp/neardup-verdict-new)"
done
