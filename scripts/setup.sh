#!/usr/bin/env bash
# Installs what the project needs and is missing; safe to run again.
#   scripts/setup.sh          toolchain for building the package and the page
#   scripts/setup.sh --test   also what the tests need (a no-std target, Chromium,
#                             the Python virtual environment .venv)
# Either may be given one half (scripts/test.sh runs the second in the
# background while the Rust steps compile):
#   --rust-only   the Rust targets (what cargo needs)
#   --env-only    wasm-bindgen-cli, cargo-fuzz, the npm packages, Chromium
#                 and .venv
#   --cargo-fuzz  cargo-fuzz alone (scripts/fuzz.sh)
set -euo pipefail
exec < /dev/null
cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

want_test=0 want_rust=1 want_env=1 want_fuzz_only=0
for arg in "$@"; do
  case $arg in
    --test) want_test=1 ;;
    --rust-only) want_env=0 ;;
    --env-only) want_rust=0 ;;
    --cargo-fuzz) want_fuzz_only=1 want_rust=0 want_env=0 ;;
    *) echo "[setup] unknown option $arg (--test, --rust-only, --env-only, --cargo-fuzz)" >&2; exit 2 ;;
  esac
done

say() { printf '[setup] %s\n' "$*"; }

# cargo-fuzz for the fuzz smoke run: only where the nightly toolchain it
# needs is. Unoptimised, as wasm-bindgen-cli below: it only drives cargo
# (43 s of CPU to build against 85 s).
install_cargo_fuzz() {
  if rustup toolchain list | grep -q '^nightly' && ! cargo fuzz --version >/dev/null 2>&1; then
    say "installing cargo-fuzz (about half a minute, once)"
    CARGO_PROFILE_RELEASE_OPT_LEVEL=0 cargo install cargo-fuzz --locked
  fi
}
if [ $want_fuzz_only = 1 ]; then
  install_cargo_fuzz
  exit 0
fi

if [ $want_rust = 1 ]; then
  have_target() { rustup target list --installed | grep -qx "$1"; }
  for t in wasm32-unknown-unknown $([ $want_test = 1 ] && echo thumbv7m-none-eabi); do
    if ! have_target "$t"; then
      say "adding Rust target $t"
      rustup target add "$t"
    fi
  done
fi

if [ $want_env = 1 ]; then
  # wasm-bindgen-cli must equal the wasm-bindgen crate version in Cargo.lock.
  if [ ! -f Cargo.lock ]; then cargo generate-lockfile; fi
  wb_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
  if [ -z "$wb_version" ]; then echo "[setup] cannot find wasm-bindgen in Cargo.lock" >&2; exit 1; fi
  if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$wb_version" ]; then
    say "installing wasm-bindgen-cli $wb_version (a minute or two, once)"
    # No --locked: its lock file pins a crate the registry mirror lacks.
    # No default features: they are TLS (rustls, ring) for the test runner's
    # WebDriver client, which talks to a local driver over plain HTTP, and
    # the project runs its wasm tests under Node: 13 % less CPU to build.
    # Unoptimised (opt-level 0): 129 s of CPU to build against 360 s, for
    # the same output, byte for byte; it runs slower, 1.5 s against 0.25 s
    # on the main module and 15 s against 2.4 s for the wasm32 tests, far
    # less than it saves (BENCHMARKS.md, "`npm test` on a fresh clone").
    CARGO_PROFILE_RELEASE_OPT_LEVEL=0 \
      cargo install wasm-bindgen-cli --version "$wb_version" --no-default-features
  fi

  if [ $want_test = 1 ]; then install_cargo_fuzz; fi

  # npm packages (binaryen's wasm-opt, playwright-core): only when out of date.
  if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ] \
     || [ package.json -nt node_modules/.package-lock.json ]; then
    say "installing npm packages"
    npm install --no-audit --no-fund
  fi

  if [ $want_test = 1 ] && ! command -v chromium >/dev/null 2>&1; then
    say "installing Debian's Chromium for the browser test"
    SUDO=""
    [ "$(id -u)" != 0 ] && SUDO="sudo"
    $SUDO apt-get update -q
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q chromium chromium-driver
  fi
  # The Python package's virtual environment (for its tests): created once;
  # the package itself is built and installed by scripts/test.sh.
  if [ $want_test = 1 ]; then
    if [ ! -x .venv/bin/python ]; then
      say "creating the Python virtual environment .venv"
      python3 -m venv .venv
    fi
    if ! .venv/bin/python -c 'import pytest, pyarrow, maturin' 2>/dev/null; then
      say "installing pytest, pyarrow and maturin into .venv"
      .venv/bin/pip install -q --disable-pip-version-check 'pytest>=7' 'pyarrow>=14' 'maturin>=1.9,<2'
    fi
    # An independent Double Metaphone (a Python port of dmetaph.cpp, BSD) that
    # tests/test_spec_reference.py holds the Rust codes against.
    if ! .venv/bin/python -c 'import metaphone' 2>/dev/null; then
      say "installing Metaphone into .venv"
      .venv/bin/pip install -q --disable-pip-version-check 'Metaphone==0.6'
    fi
    # XXH3-64 of the reference C implementation (BSD), spec version 2's byte
    # hash in tests/spec_reference.py.
    if ! .venv/bin/python -c 'import xxhash' 2>/dev/null; then
      say "installing xxhash into .venv"
      .venv/bin/pip install -q --disable-pip-version-check 'xxhash>=3'
    fi
    # The engines of neardup.spark and neardup.ray (the package's extras;
    # pyspark runs on the machine's JDK). About two minutes, once.
    if ! .venv/bin/python -c 'import pyspark, ray.data, pandas, polars' 2>/dev/null; then
      say "installing pyspark and ray into .venv (a few minutes, once)"
      .venv/bin/pip install -q --disable-pip-version-check 'pyspark>=4,<5' 'pandas<3' 'ray[data]>=2.46' 'polars>=1'
    fi
    # neardup.duckdb's engine, Hugging Face datasets (the README's recipe),
    # and mypy for stubtest (the stubs checked against the built module).
    if ! .venv/bin/python -c 'import duckdb, datasets, mypy.stubtest' 2>/dev/null; then
      say "installing duckdb, datasets and mypy into .venv"
      .venv/bin/pip install -q --disable-pip-version-check 'duckdb>=1.1' 'numpy' 'datasets>=3' 'mypy>=1.10'
    fi
  fi
fi
say "ready"
