#!/usr/bin/env bash
# Every test of the project, after installing what is missing (idempotent).
# Called by `npm test` and by .ci/run. Needs ../shared/data (or NEARDUP_DATA).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
export CARGO_TERM_COLOR=never
exec < /dev/null
# On a fresh clone (CI), nothing is built twice: incremental compilation's
# cache only costs there (the test build took 430 s of CPU without it against
# 504 s with it, BENCHMARKS.md "`npm test` on a fresh clone"). Where target/
# holds an earlier build, cargo's default is kept; a CARGO_INCREMENTAL given
# is always kept.
if [ ! -d target/debug ] && [ -z "${CARGO_INCREMENTAL:-}" ]; then
  export CARGO_INCREMENTAL=0
fi

started=$SECONDS
step() { printf '\n=== %s  [%ds since the start]\n' "$*" $((SECONDS - started)); }

# Nothing here may replace /dev/null (a CLI once renamed its output over
# `-o /dev/null`, which breaks every later cargo run on the machine).
devnull_ok() {
  [ -c /dev/null ] || { echo "/dev/null is no longer a character device" >&2; exit 1; }
}
devnull_ok

# Waits for a background job (PID) and shows its log; a failure stops the run.
await_job() { # PID LOG WHAT
  if ! wait "$1"; then
    cat "$2" >&2
    echo "$3 failed" >&2
    exit 1
  fi
  cat "$2"
}

step "setup"
bash scripts/setup.sh --test --rust-only
# The rest — wasm-bindgen-cli and cargo-fuzz (builds), then downloads: the
# npm packages, Chromium, .venv, and a fresh target/wheel-venv holding the
# dependencies of the wheel's extras (the wheel itself is installed into it
# later) — runs in the background while the Rust steps compile; the Python
# step waits for it (nothing before it uses them). Several minutes on a
# fresh machine; when all is there, only target/wheel-venv's dependencies,
# from pip's cache.
mkdir -p target
rm -rf target/wheel-venv
wheel_venv_deps() { # the extras' requirements, read from python/pyproject.toml (Python >= 3.11's tomllib)
  python3 -m venv target/wheel-venv || return 1
  local reqs
  reqs=$(target/wheel-venv/bin/python - <<'PY' 2>/dev/null || true
import tomllib
extras = tomllib.load(open("python/pyproject.toml", "rb"))["project"]["optional-dependencies"]
print("\n".join(sorted({r for e in ("test", "polars", "duckdb", "spark", "ray") for r in extras[e]})))
PY
)
  [ -n "$reqs" ] || { echo "[setup] no tomllib: the extras are installed with the wheel"; return 0; }
  echo "[setup] installing the wheel's extras' dependencies into target/wheel-venv"
  (export PATH=/usr/local/bin:/usr/bin:/bin
    mapfile -t req_list <<< "$reqs"
    target/wheel-venv/bin/pip install -q --disable-pip-version-check "${req_list[@]}" 'datasets>=3')
}
(bash scripts/setup.sh --test --env-only && wheel_venv_deps) > target/setup-env.log 2>&1 &
env_setup=$!

step "format and lints"
cargo fmt --all -- --check
cargo fmt --manifest-path fuzz/Cargo.toml -- --check
cargo clippy --lib --target wasm32-unknown-unknown --features wasm -- -D warnings
cargo clippy --lib --target wasm32-unknown-unknown --no-default-features --features wasm-read -- -D warnings
cargo clippy --lib --target wasm32-unknown-unknown --no-default-features --features wasm-compare -- -D warnings
cargo clippy --all-targets --features cli -- -D warnings
cargo fmt --manifest-path python/Cargo.toml -- --check
cargo clippy --manifest-path python/Cargo.toml -- -D warnings
(export RUSTDOCFLAGS="-D warnings"; cargo doc --no-deps --features serde,read)

step "the core builds without std (thumbv7m-none-eabi: no std at all)"
# A check is enough: std does not exist for this target, so any use of it
# fails to type-check (the cdylib crate type is dropped, with a warning).
cargo check --lib --no-default-features --target thumbv7m-none-eabi
cargo check --lib --no-default-features --features serde --target thumbv7m-none-eabi

step "Rust tests (unit, doc, integration incl. CLI and golden vectors)"
cargo test --features cli

step "the same golden vectors and CLI outputs on the fallback kernels: AVX-512 switched off, then AVX2 too (NEARDUP_DISABLE_CPU_FEATURES)"
# Every tier computes the same values; on this CPU the tests above ran
# its best one. About 20 s a tier.
for tier in avx512 avx2; do
  NEARDUP_DISABLE_CPU_FEATURES=$tier cargo test --features cli --test main -- \
    golden:: cli::dedup_writes_the_same_bytes_as_before_the_pipeline_moved_into_the_core
done

step "the background setup (wasm-bindgen-cli, cargo-fuzz, npm packages, Chromium, .venv, target/wheel-venv's dependencies)"
await_job $env_setup target/setup-env.log "the background setup"

# The npm package is built in the background from here (it needs only what
# the setup installed) and waited for before the Node tests: its builds
# take the core that the Python, wasm32 and fuzz steps leave idle (about a
# fifth of the CPU in them). Its output is shown when it is waited for.
bash scripts/build-pkg.sh > target/build-pkg.log 2>&1 &
pkg_build=$!

step "Python package (PyO3, abi3): a wheel built by maturin, installed into .venv; stubtest; the golden files against the independent reference implementation of SPEC.md"
rm -rf python/dist
(cd python && PATH="$PWD/../.venv/bin:$PATH" ../.venv/bin/maturin build --release --quiet -o dist)
wheel=$(ls python/dist/neardup-*-abi3-*.whl)
.venv/bin/pip install -q --disable-pip-version-check --force-reinstall --no-deps "$wheel"
(cd /tmp && "$OLDPWD/.venv/bin/python" -m mypy.stubtest neardup._neardup --mypy-config-file "$OLDPWD/python/pyproject.toml")
.venv/bin/python -m pytest -q tests/test_spec_reference.py

step "the wheel in a fresh venv with no Rust on PATH, with every extra: all the Python tests (Polars, DuckDB, Spark, Ray, datasets)"
(export PATH=/usr/local/bin:/usr/bin:/bin
  if command -v cargo || command -v rustc; then echo "Rust is on PATH: the wheel test would not show it installs without Rust" >&2; exit 1; fi
  target/wheel-venv/bin/pip install -q --disable-pip-version-check "$wheel[test,polars,duckdb,spark,ray]" 'datasets>=3'
  target/wheel-venv/bin/python - <<'PY'
import importlib.metadata as m, neardup
assert "/target/wheel-venv/" in neardup.__file__, neardup.__file__
wheel = m.distribution("neardup").read_text("WHEEL")
assert "Generator: maturin" in wheel and "cp39-abi3" in wheel, wheel
print("neardup", m.version("neardup"), "from the abi3 wheel:", neardup.__file__)
PY
  target/wheel-venv/bin/python -m pytest -q -p no:cacheprovider python/tests)
step "golden vectors and binding on wasm32 under Node (wasm-bindgen-test)"
# Unoptimised, dependencies too (the dev profile builds them at opt-level
# 2 for the native tests' speed): the tests take 0.4 s against 0.2 s, the
# build 94 s of CPU against 166 s.
(export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
  cargo test --config 'profile.dev.opt-level=0' --config 'profile.dev.package."*".opt-level=0' \
    --target wasm32-unknown-unknown --features wasm --test main)

step "fuzz smoke run: every cargo-fuzz target for 10 s (scripts/fuzz.sh; longer runs: scripts/fuzz.sh SECONDS)"
# cargo-fuzz needs a nightly toolchain (libFuzzer's sanitizer flags). The
# machine image ships one; rustup installs one where its servers are
# reachable. Without it the smoke run is skipped, said here, never hidden.
if ! rustup toolchain list | grep -q '^nightly'; then
  rustup toolchain install nightly --profile minimal >/dev/null 2>&1 || true
fi
if rustup toolchain list | grep -q '^nightly'; then
  bash scripts/fuzz.sh 10
else
  echo "SKIPPED: no nightly Rust toolchain, and rustup could not install one: the fuzz smoke run needs it (run scripts/fuzz.sh where one is available)"
fi

step "the npm package (scripts/build-pkg.sh, built in the background since the Python step)"
await_job $pkg_build target/build-pkg.log "the npm package's build"

step "Node tests of the package, and the browser test of the page"
# The package's tests (no browser, nothing timed) two files at a time;
# the browser tests one at a time, as some time the page (a stalled worker,
# a frozen tab) and would share the CPU.
node --test --test-concurrency=2 tests/js/*.test.mjs
node --test --test-concurrency=1 tests/browser/*.test.mjs
devnull_ok
step "done"
