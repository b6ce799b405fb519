#!/usr/bin/env bash
# Builds the npm package in pkg/ from the Rust crate: wasm32 build,
# wasm-bindgen (ESM, --target web), wasm-opt from npm's binaryen, and the
# generated package.json / Node entry. pkg/ is output only: never edit it.
# Modules from the same source: neardup_bg.wasm (baseline WebAssembly)
# and neardup_simd_bg.wasm (built with `simd128`, in its own target dir,
# target/simd); their wasm-bindgen glue must be the same file, and is
# checked to be. The entries load the SIMD one where the runtime has SIMD.
#   scripts/build-pkg.sh         release build (optimised, no panic hook)
#   scripts/build-pkg.sh --dev   debug build (panic hook, fast to build)
set -euo pipefail
exec < /dev/null
cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

profile=release
[ "${1:-}" = "--dev" ] && profile=debug
cargo_flags=(--lib --target wasm32-unknown-unknown --features wasm)
[ $profile = release ] && cargo_flags+=(--release)
cargo build "${cargo_flags[@]}"

rm -rf pkg
wasm-bindgen --target web --out-dir pkg --out-name neardup \
  "target/wasm32-unknown-unknown/$profile/neardup.wasm"
RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+simd128" CARGO_TARGET_DIR=target/simd cargo build "${cargo_flags[@]}"
simd_out=$(mktemp -d)
trap 'rm -rf "$simd_out"' EXIT
wasm-bindgen --target web --out-dir "$simd_out" --out-name neardup \
  "target/simd/wasm32-unknown-unknown/$profile/neardup.wasm"
cmp -s "$simd_out/neardup.js" pkg/neardup.js || { echo "the SIMD build's glue differs from the baseline's" >&2; exit 1; }
mv "$simd_out/neardup_bg.wasm" pkg/neardup_simd_bg.wasm
# The reader's module (feature wasm-read: readFile, readFiles,
# readingLimits, classStudents), loaded only by those that read files (the
# page's reader worker, `neardup/read`): its own target dir, its own glue.
reader_flags=(--lib --target wasm32-unknown-unknown --no-default-features --features wasm-read)
[ $profile = release ] && reader_flags+=(--release)
CARGO_TARGET_DIR=target/reader cargo build "${reader_flags[@]}"
wasm-bindgen --target web --out-dir pkg --out-name neardup_read \
  "target/reader/wasm32-unknown-unknown/$profile/neardup.wasm"
# The comparison's module (feature wasm-compare: compare, SvmModel,
# Speller, textOfBytes, normalize, shingles, phonetic codes), baseline and
# SIMD with one glue, loaded by the page's two-text view and `neardup/compare`
# without the class set, dedup, library and multireference code (issue 49).
compare_flags=(--lib --target wasm32-unknown-unknown --no-default-features --features wasm-compare)
[ $profile = release ] && compare_flags+=(--release)
CARGO_TARGET_DIR=target/compare cargo build "${compare_flags[@]}"
wasm-bindgen --target web --out-dir pkg --out-name neardup_compare \
  "target/compare/wasm32-unknown-unknown/$profile/neardup.wasm"
RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+simd128" CARGO_TARGET_DIR=target/compare-simd cargo build "${compare_flags[@]}"
wasm-bindgen --target web --out-dir "$simd_out" --out-name neardup_compare \
  "target/compare-simd/wasm32-unknown-unknown/$profile/neardup.wasm"
cmp -s "$simd_out/neardup_compare.js" pkg/neardup_compare.js || { echo "the SIMD comparison module's glue differs from the baseline's" >&2; exit 1; }
mv "$simd_out/neardup_compare_bg.wasm" pkg/neardup_compare_simd_bg.wasm
if [ $profile = release ]; then
  # Never Debian's binaryen (108): it emits modules that fail at load.
  features=(--enable-bulk-memory --enable-mutable-globals --enable-nontrapping-float-to-int
    --enable-sign-ext --enable-reference-types --enable-multivalue)
  node_modules/.bin/wasm-opt -Oz "${features[@]}" pkg/neardup_bg.wasm -o pkg/neardup_bg.wasm
  node_modules/.bin/wasm-opt -Oz "${features[@]}" --enable-simd pkg/neardup_simd_bg.wasm -o pkg/neardup_simd_bg.wasm
  node_modules/.bin/wasm-opt -Oz "${features[@]}" pkg/neardup_read_bg.wasm -o pkg/neardup_read_bg.wasm
  node_modules/.bin/wasm-opt -Oz "${features[@]}" pkg/neardup_compare_bg.wasm -o pkg/neardup_compare_bg.wasm
  node_modules/.bin/wasm-opt -Oz "${features[@]}" --enable-simd pkg/neardup_compare_simd_bg.wasm -o pkg/neardup_compare_simd_bg.wasm
fi
node scripts/pkg-meta.mjs
node scripts/build-page.mjs
echo "[build] pkg/ ($profile): $(wc -c < pkg/neardup_bg.wasm) bytes of wasm, $(gzip -9c pkg/neardup_bg.wasm | wc -c) gzipped; with SIMD $(wc -c < pkg/neardup_simd_bg.wasm), $(gzip -9c pkg/neardup_simd_bg.wasm | wc -c) gzipped; the reader's $(wc -c < pkg/neardup_read_bg.wasm), $(gzip -9c pkg/neardup_read_bg.wasm | wc -c) gzipped; the comparison's (SIMD) $(wc -c < pkg/neardup_compare_simd_bg.wasm), $(gzip -9c pkg/neardup_compare_simd_bg.wasm | wc -c) gzipped"
