#!/usr/bin/env bash
# The comparison's module (feature wasm-compare) built at opt-level 3 (the
# release profile) and "z" (for size): each one's gzipped size after
# `wasm-opt -Oz`, and the CPU time of `compare` on a 60,000-word text
# against a half-copied one in Node, interleaved (BENCHMARKS.md, "Modules
# by use"). Run from the repository after `bash scripts/setup.sh`.
#   bash bench/compare-module-opt.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
features=(--enable-bulk-memory --enable-mutable-globals --enable-nontrapping-float-to-int
  --enable-sign-ext --enable-reference-types --enable-multivalue)
for level in 3 z; do
  CARGO_PROFILE_RELEASE_OPT_LEVEL=$level CARGO_TARGET_DIR="target/compare-opt-$level" cargo build -q --lib --release \
    --target wasm32-unknown-unknown --no-default-features --features wasm-compare
  wasm-bindgen --target web --out-dir "$out/$level" --out-name neardup_compare \
    "target/compare-opt-$level/wasm32-unknown-unknown/release/neardup.wasm"
  node_modules/.bin/wasm-opt -Oz "${features[@]}" "$out/$level/neardup_compare_bg.wasm" -o "$out/$level/o.wasm"
  echo "opt-level $level: $(wc -c < "$out/$level/o.wasm") B, $(gzip -9c "$out/$level/o.wasm" | wc -c) gzipped"
done
cat > "$out/speed.mjs" <<'JS'
import { readFileSync } from 'node:fs';
const dir = process.argv[2];
const m = await import(`${dir}/neardup_compare.js`);
m.initSync({ module: readFileSync(`${dir}/o.wasm`) });
const words = readFileSync(process.argv[3], 'utf8').split(/\s+/);
let s = 1;
const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
const text = (n) => Array.from({ length: n }, () => words[Math.floor(rnd() * words.length)]).join(' ');
const a = text(60000);
const b = a.slice(0, 200000) + text(30000);
m.compare(a, b);
const t0 = process.cpuUsage();
for (let i = 0; i < 5; i++) m.compare(a, b);
const t = process.cpuUsage(t0);
console.log(`${process.argv[4]}: ${((t.user + t.system) / 5000).toFixed(1)} ms CPU a compare`);
JS
data=${NEARDUP_DATA:-../shared/data}
for round in 1 2; do
  for level in 3 z; do node "$out/speed.mjs" "$out/$level" "$data/clough-abc/texts/orig_taska.txt" "opt-level $level (round $round)"; done
done
