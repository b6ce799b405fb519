#!/usr/bin/env bash
# Builds the npm package in pkg/ from the Rust crate: wasm32 build,
# wasm-bindgen (ESM, --target web), wasm-opt from npm's binaryen, and the
# generated package.json / Node entry. pkg/ is output only: never edit it.
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
if [ $profile = release ]; then
  # Never Debian's binaryen (108): it emits modules that fail at load.
  node_modules/.bin/wasm-opt -Oz \
    --enable-bulk-memory --enable-mutable-globals --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-reference-types --enable-multivalue \
    pkg/neardup_bg.wasm -o pkg/neardup_bg.wasm
fi
node scripts/pkg-meta.mjs
node scripts/build-page.mjs
echo "[build] pkg/ ($profile): $(wc -c < pkg/neardup_bg.wasm) bytes of wasm, $(gzip -9c pkg/neardup_bg.wasm | wc -c) gzipped"
