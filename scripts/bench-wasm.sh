#!/usr/bin/env bash
# Issue 50 item 4, interleaved: text → MinHash-128 at spec 2, a document at a
# time over the 1 MiB sample of docs-bench, natively (benches/sketch_wasm_native.rs)
# and in the npm package in Node (bench/wasm-native.mjs), ROUNDS times in turn,
# wall time of the one thread that works (see the two files). Prints each round's milliseconds and WebAssembly's time as a
# multiple of the native run just before it, then the range over the rounds
# and the ratio of each side's fastest run (this shared machine's speed drifts
# by tens of per cent over seconds: the fastest run is the least disturbed).
#   bash scripts/build-pkg.sh && bash scripts/bench-wasm.sh [ROUNDS]   (default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-3}"
[ -f pkg/node.js ] || { echo "bench-wasm: build the package first (bash scripts/build-pkg.sh)" >&2; exit 2; }
native=$(cargo bench --features serde --bench sketch_wasm_native --no-run 2>&1 | sed -n 's/.*Executable .*(\(.*\))/\1/p')
[ -x "$native" ] || { echo "bench-wasm: the native bench did not build" >&2; exit 1; }
ms() { awk -v k="$1" 'index($0, k) == 1 { print $(NF - 1); exit }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo "| round | shingle | native | wasm, one object cleared | wasm, a new object a document |"
echo "|---|---|---|---|---|"
results=()
for r in $(seq 1 "$rounds"); do
  n=$("$native")
  w=$(node bench/wasm-native.mjs)
  for sh in word:5 char:5; do
    a=$(ms "native $sh" <<<"$n")
    c=$(ms "wasm $sh cleared" <<<"$w")
    f=$(ms "wasm $sh new" <<<"$w")
    echo "| $r | $sh | $a ms | $c ms, $(ratio "$c" "$a")× | $f ms, $(ratio "$f" "$a")× |"
    results+=("$sh $(ratio "$c" "$a") $(ratio "$f" "$a") $a $c $f")
  done
done
echo
echo "WebAssembly / native, round by round (min–max), and the fastest of all rounds of each side against the fastest native (target 1.3×):"
printf '%s\n' "${results[@]}" | awk '
  { k = $1; keys[k] = 1
    for (i = 2; i <= 6; i++) { j = k SUBSEP i; if (!(j in lo) || $i < lo[j]) lo[j] = $i; if (!(j in hi) || $i > hi[j]) hi[j] = $i } }
  END { for (k in keys) printf "  %s: one object cleared %.2f–%.2f×, fastest %.3f / %.3f ms = %.2f×; a new object a document %.2f–%.2f×, fastest %.3f / %.3f ms = %.2f×\n", k,
          lo[k SUBSEP 2], hi[k SUBSEP 2], lo[k SUBSEP 5], lo[k SUBSEP 4], lo[k SUBSEP 5] / lo[k SUBSEP 4],
          lo[k SUBSEP 3], hi[k SUBSEP 3], lo[k SUBSEP 6], lo[k SUBSEP 4], lo[k SUBSEP 6] / lo[k SUBSEP 4] }'
