#!/usr/bin/env bash
# Rewrites the golden files of tests/golden/ from the code, on demand, after
# a deliberate change (never during `npm test`): runs the ignored `write_*`
# tests of tests/golden.rs. Each goes through `bless`, which refuses to change
# a spec-bound file (`…-v{SPEC_VERSION}.json`) under the same SPEC_VERSION;
# files bound to the shipped model and reference (verdict, multiref) may
# change when those are retrained. Then shows what changed.
#   scripts/bless.sh [NAME_FILTER]     e.g. scripts/bless.sh verdict
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
filter=${1:-}
cargo test --features cli --test main -- --ignored "write_${filter}" --test-threads 1
git --no-pager diff --stat -- tests/golden
