# Sourced by scripts/build-pkg.sh and bench/compare-module-size.sh: the
# `cargo build` options of the release WebAssembly modules that optimise for
# size the crates off the hot path (the JSON reader, the JS glue, the script
# enum). The core, the hashes, and the Unicode segmentation and
# normalisation keep opt-level 3; native builds are not affected.
# (BENCHMARKS.md, "The comparison's module under 250 KB".)
wasm_cold=()
for crate in serde_json serde_core serde zmij wasm-bindgen js-sys serde-wasm-bindgen unicode-script; do
  wasm_cold+=(--config "profile.release.package.$crate.opt-level=\"z\"")
done
