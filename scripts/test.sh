#!/usr/bin/env bash
# Every test of the project, after installing what is missing (idempotent).
# Called by `npm test` and by .ci/run. Needs ../shared/data (or NEARDUP_DATA).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
export CARGO_TERM_COLOR=never
# Every cargo command reads /dev/null as its standard input: under `npm test`
# here, cargo's rustc probes (`rustc - --print=cfg`) were fed text that was
# not theirs (build-script output) and failed; /dev/null fixes it.
exec < /dev/null

step() { printf '\n=== %s\n' "$*"; }

step "setup"
bash scripts/setup.sh --test

step "format and lints"
cargo fmt --all -- --check
cargo clippy --lib --target wasm32-unknown-unknown --features wasm -- -D warnings
cargo clippy --all-targets --features cli -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --features serde

step "the core builds without std (thumbv7m-none-eabi: no std at all)"
cargo rustc --lib --no-default-features --target thumbv7m-none-eabi --crate-type rlib
cargo rustc --lib --no-default-features --features serde --target thumbv7m-none-eabi --crate-type rlib

step "Rust tests (unit, doc, integration incl. CLI and golden vectors)"
cargo test --features cli

step "golden vectors and binding on wasm32 under Node (wasm-bindgen-test)"
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  cargo test --target wasm32-unknown-unknown --features wasm --test main

step "build the npm package"
bash scripts/build-pkg.sh

step "Node tests of the package, and the browser test of the page"
node --test tests/js/*.test.mjs tests/browser/*.test.mjs
