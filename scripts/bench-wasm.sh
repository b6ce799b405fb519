#!/usr/bin/env bash
# Issue 50 item 4, interleaved: text → MinHash-128 at spec 2, a document at a
# time over the 1 MiB sample of docs-bench, natively (benches/sketch_wasm_native.rs),
# in the npm package in Node (bench/wasm-native.mjs) and in Chromium's main
# thread (bench/wasm-chromium.mjs; the two share bench/sketch-times.mjs), ROUNDS times in turn,
# wall time of the one thread that works (see the two files). Prints each round's milliseconds and WebAssembly's time as a
# multiple of the native run just before it, then the range over the rounds
# and the ratio of each side's fastest run (this shared machine's speed drifts
# by tens of per cent over seconds: the fastest run is the least disturbed).
#   bash scripts/build-pkg.sh && bash scripts/bench-wasm.sh [ROUNDS]   (default 3)
# The native side runs the best kernels the CPU has; with
# NEARDUP_DISABLE_CPU_FEATURES=avx512 the AVX2 ones, =avx2 the portable code
# (128-bit SIMD, as WebAssembly's), as on CPUs without them (BENCHMARKS.md,
# "Without AVX-512"); the package does not read the variable.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-3}"
[ -f pkg/node.js ] || { echo "bench-wasm: build the package first (bash scripts/build-pkg.sh)" >&2; exit 2; }
native=$(cargo bench --features serde --bench sketch_wasm_native --no-run 2>&1 | sed -n 's/.*Executable .*(\(.*\))/\1/p')
[ -x "$native" ] || { echo "bench-wasm: the native bench did not build" >&2; exit 1; }
ms() { awk -v k="$1" 'index($0, k) == 1 { print $(NF - 1); exit }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo "native kernels: ${NEARDUP_DISABLE_CPU_FEATURES:+with NEARDUP_DISABLE_CPU_FEATURES=$NEARDUP_DISABLE_CPU_FEATURES, }the best this CPU has left"
echo
echo "| round | shingle | native | Node, one object cleared | Node, a new object a document | Chromium, one object cleared | Chromium, a new object a document |"
echo "|---|---|---|---|---|---|---|"
results=()
for r in $(seq 1 "$rounds"); do
  n=$("$native")
  w=$(node bench/wasm-native.mjs)
  b=$(node bench/wasm-chromium.mjs)
  for sh in word:5 char:5; do
    a=$(ms "native $sh" <<<"$n")
    c=$(ms "wasm $sh cleared" <<<"$w")
    f=$(ms "wasm $sh new" <<<"$w")
    bc=$(ms "chromium $sh cleared" <<<"$b")
    bf=$(ms "chromium $sh new" <<<"$b")
    echo "| $r | $sh | $a ms | $c ms, $(ratio "$c" "$a")× | $f ms, $(ratio "$f" "$a")× | $bc ms, $(ratio "$bc" "$a")× | $bf ms, $(ratio "$bf" "$a")× |"
    results+=("$sh $(ratio "$c" "$a") $(ratio "$f" "$a") $a $c $f $(ratio "$bc" "$a") $(ratio "$bf" "$a") $bc $bf")
  done
done
echo
echo "WebAssembly / native, round by round (min–max), and the fastest of all rounds of each side against the fastest native (target 1.3×):"
printf '%s\n' "${results[@]}" | awk '
  { k = $1; keys[k] = 1
    for (i = 2; i <= 10; i++) { j = k SUBSEP i; if (!(j in lo) || $i < lo[j]) lo[j] = $i; if (!(j in hi) || $i > hi[j]) hi[j] = $i } }
  function side(k, name, rc, rf, tc, tf) {
    printf "  %s %s: one object cleared %.2f–%.2f×, fastest %.3f / %.3f ms = %.2f×; a new object a document %.2f–%.2f×, fastest %.3f / %.3f ms = %.2f×\n", k, name,
      lo[k SUBSEP rc], hi[k SUBSEP rc], lo[k SUBSEP tc], lo[k SUBSEP 4], lo[k SUBSEP tc] / lo[k SUBSEP 4],
      lo[k SUBSEP rf], hi[k SUBSEP rf], lo[k SUBSEP tf], lo[k SUBSEP 4], lo[k SUBSEP tf] / lo[k SUBSEP 4] }
  END { for (k in keys) { side(k, "Node", 2, 3, 5, 6); side(k, "Chromium", 7, 8, 9, 10) } }'
