#!/usr/bin/env bash
# The comparison's module (feature wasm-compare, SIMD) at another commit and
# in this working tree, each built as its scripts/build-pkg.sh builds it
# (with scripts/wasm-cold.sh where the commit has it): the gzipped size after
# `wasm-opt -Oz` (GNU gzip -9, and Node's zlib, which the bundler and
# first-score figures use), and the CPU time of `compare` in Node, the two builds
# interleaved — a 60,000-word text against a half-copied one, the same with
# the verdict's model, and with look-alike letters and invisible characters
# in one word of three (the unmasked normalisation's work). BENCHMARKS.md,
# "The comparison's module under 250 KB". Run from the repository after
# `bash scripts/setup.sh`:
#   bash bench/compare-module-size.sh [COMMIT]   (default: HEAD)
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:-HEAD}
out=$(mktemp -d)
prev=$(mktemp -d)
trap 'git worktree remove --force "$prev/tree" > /dev/null 2>&1 || true; git worktree prune; rm -rf "$out" "$prev"' EXIT
git worktree add -q --detach "$prev/tree" "$rev"
features=(--enable-bulk-memory --enable-mutable-globals --enable-nontrapping-float-to-int
  --enable-sign-ext --enable-reference-types --enable-multivalue --enable-simd)
build() { # NAME TREE
  local name=$1 tree=$2 wasm_cold=()
  [ -f "$tree/scripts/wasm-cold.sh" ] && . "$tree/scripts/wasm-cold.sh"
  (cd "$tree" && RUSTFLAGS="-C target-feature=+simd128" CARGO_TARGET_DIR="$PWD/target/compare-size-$name" \
    cargo build -q --lib --release "${wasm_cold[@]}" --target wasm32-unknown-unknown \
    --no-default-features --features wasm-compare)
  wasm-bindgen --target web --out-dir "$out/$name" --out-name neardup_compare \
    "$tree/target/compare-size-$name/wasm32-unknown-unknown/release/neardup.wasm"
  node_modules/.bin/wasm-opt -Oz "${features[@]}" "$out/$name/neardup_compare_bg.wasm" -o "$out/$name/o.wasm"
  echo "$name: $(wc -c < "$out/$name/o.wasm") B, $(gzip -9c "$out/$name/o.wasm" | wc -c) gzipped (gzip -9), $(node -e "const z = require('node:zlib'), b = require('node:fs').readFileSync(process.argv[1]); console.log(z.gzipSync(b).length + ' (Node zlib, level 6), ' + z.gzipSync(b, { level: 9 }).length + ' (level 9)')" "$out/$name/o.wasm")"
}
build before "$prev/tree"
build after "$PWD"
cat > "$out/speed.mjs" <<'JS'
import { readFileSync } from 'node:fs';
const [dir, source, model, name] = process.argv.slice(2);
const m = await import(`${dir}/neardup_compare.js`);
m.initSync({ module: readFileSync(`${dir}/o.wasm`) });
const words = readFileSync(source, 'utf8').split(/\s+/);
let s = 1;
const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
const text = (n) => Array.from({ length: n }, () => words[Math.floor(rnd() * words.length)]).join(' ');
const a = text(60000);
const b = a.slice(0, 200000) + text(30000);
// One word of three with its a, e, o Cyrillic and a zero-width space inside.
const tricked = a.split(' ').map((w, i) => (i % 3 ? w : w.replace(/a/g, '\u0430').replace(/e/g, '\u0435').replace(/o/g, '\u043e') + '\u200b')).join(' ');
const svm = m.SvmModel.fromJson(readFileSync(model, 'utf8'));
const cases = [['plain', () => m.compare(a, b)], ['model', () => svm.compare(a, b)], ['tricked', () => m.compare(tricked, b)]];
const cells = [];
for (const [label, run] of cases) {
  run();
  const t0 = process.cpuUsage();
  for (let i = 0; i < 5; i++) run();
  const t = process.cpuUsage(t0);
  cells.push(`${label} ${((t.user + t.system) / 5000).toFixed(1)} ms`);
}
console.log(`${name}: ${cells.join(', ')} (CPU a compare, mean of 5)`);
JS
data=${NEARDUP_DATA:-../shared/data}
for round in 1 2 3; do
  for name in before after; do
    node "$out/speed.mjs" "$out/$name" "$data/clough-abc/texts/orig_taska.txt" assets/model.json "$name (round $round)"
  done
done
