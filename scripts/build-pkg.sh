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
# The five builds run as two chains at once, one per set of flags: the
# baseline modules in target/ and the SIMD ones in target/simd. A chain's
# builds differ only in the crate's features, so its dependencies are built
# once (on a fresh clone three of the five builds then compile only the
# crate; five target dirs compiled every dependency five times). Each
# build's module is copied to target/pkg-wasm/NAME.wasm before the next one
# of its chain replaces the file cargo writes. Each build's output goes to
# target/pkg-logs/NAME.log, shown if it fails.
release=()
[ $profile = release ] && release=(--release)
# Crates off the hot path optimised for size in the release modules
# (scripts/wasm-cold.sh): 8 KB less of the comparison's module gzipped.
if [ $profile = release ]; then
  . scripts/wasm-cold.sh
  release+=("${wasm_cold[@]}")
fi
simd="${RUSTFLAGS:-} -C target-feature=+simd128"
logs=target/pkg-logs wasm=target/pkg-wasm
mkdir -p "$logs" "$wasm"
build() { # NAME TARGET_DIR RUSTFLAGS FEATURE_FLAGS...: one build, its module copied
  local name=$1 dir=$2 flags=$3
  shift 3
  RUSTFLAGS="$flags" CARGO_TARGET_DIR="$dir" \
    cargo build --lib --target wasm32-unknown-unknown "${release[@]}" "$@" > "$logs/$name.log" 2>&1 \
    && cp "$dir/wasm32-unknown-unknown/$profile/neardup.wasm" "$wasm/$name.wasm" \
    || { echo "[build] the $name module failed to build:" >&2; cat "$logs/$name.log" >&2; return 1; }
  grep -h "Finished" "$logs/$name.log" | sed "s/^ */[build] $name: /"
}
# The comparison's modules (feature wasm-compare: compare, SvmModel,
# textOfBytes, withHiddenText), baseline and SIMD with one glue, loaded by the
# page's two-text view and `neardup/compare` without the class set, dedup,
# library, multireference, dictionary, normalize, shingle and phonetic-code
# functions (issue 49). The reader's module (feature wasm-read: readFile,
# readFiles, readingLimits, classStudents), loaded only by those that read
# files (the page's reader worker, `neardup/read`).
rm -f "$wasm"/*.wasm
(build baseline target "${RUSTFLAGS:-}" --features wasm \
  && build compare target "${RUSTFLAGS:-}" --no-default-features --features wasm-compare \
  && build reader target "${RUSTFLAGS:-}" --no-default-features --features wasm-read) & plain=$!
(build simd target/simd "$simd" --features wasm \
  && build compare-simd target/simd "$simd" --no-default-features --features wasm-compare) & simd_chain=$!
failed=0
wait $plain || failed=1
wait $simd_chain || failed=1
[ $failed = 0 ] || exit 1

rm -rf pkg
wasm-bindgen --target web --out-dir pkg --out-name neardup "$wasm/baseline.wasm"
simd_out=$(mktemp -d)
trap 'rm -rf "$simd_out"' EXIT
wasm-bindgen --target web --out-dir "$simd_out" --out-name neardup "$wasm/simd.wasm"
cmp -s "$simd_out/neardup.js" pkg/neardup.js || { echo "the SIMD build's glue differs from the baseline's" >&2; exit 1; }
mv "$simd_out/neardup_bg.wasm" pkg/neardup_simd_bg.wasm
wasm-bindgen --target web --out-dir pkg --out-name neardup_read "$wasm/reader.wasm"
wasm-bindgen --target web --out-dir pkg --out-name neardup_compare "$wasm/compare.wasm"
wasm-bindgen --target web --out-dir "$simd_out" --out-name neardup_compare "$wasm/compare-simd.wasm"
cmp -s "$simd_out/neardup_compare.js" pkg/neardup_compare.js || { echo "the SIMD comparison module's glue differs from the baseline's" >&2; exit 1; }
mv "$simd_out/neardup_compare_bg.wasm" pkg/neardup_compare_simd_bg.wasm
if [ $profile = release ]; then
  # Never Debian's binaryen (108): it emits modules that fail at load.
  features=(--enable-bulk-memory --enable-mutable-globals --enable-nontrapping-float-to-int
    --enable-sign-ext --enable-reference-types --enable-multivalue)
  # One core each, so all at once; each writes over its input when done.
  opt=()
  opt_one() { node_modules/.bin/wasm-opt -Oz "${features[@]}" "$@"; }
  opt_one pkg/neardup_bg.wasm -o pkg/neardup_bg.wasm & opt+=($!)
  opt_one --enable-simd pkg/neardup_simd_bg.wasm -o pkg/neardup_simd_bg.wasm & opt+=($!)
  opt_one pkg/neardup_read_bg.wasm -o pkg/neardup_read_bg.wasm & opt+=($!)
  opt_one pkg/neardup_compare_bg.wasm -o pkg/neardup_compare_bg.wasm & opt+=($!)
  opt_one --enable-simd pkg/neardup_compare_simd_bg.wasm -o pkg/neardup_compare_simd_bg.wasm & opt+=($!)
  for pid in "${opt[@]}"; do wait "$pid" || { echo "[build] wasm-opt failed" >&2; exit 1; }; done
fi
node scripts/pkg-meta.mjs
node scripts/build-page.mjs
echo "[build] pkg/ ($profile): $(wc -c < pkg/neardup_bg.wasm) bytes of wasm, $(gzip -9c pkg/neardup_bg.wasm | wc -c) gzipped; with SIMD $(wc -c < pkg/neardup_simd_bg.wasm), $(gzip -9c pkg/neardup_simd_bg.wasm | wc -c) gzipped; the reader's $(wc -c < pkg/neardup_read_bg.wasm), $(gzip -9c pkg/neardup_read_bg.wasm | wc -c) gzipped; the comparison's (SIMD) $(wc -c < pkg/neardup_compare_simd_bg.wasm), $(gzip -9c pkg/neardup_compare_simd_bg.wasm | wc -c) gzipped"
