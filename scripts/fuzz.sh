#!/usr/bin/env bash
# Runs every cargo-fuzz target of fuzz/ for a bounded time (libFuzzer, ASan).
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     (default 60 s, all)
# Installs cargo-fuzz when missing (idempotent); needs the nightly toolchain
# that ships with the machine image. Seeds: valid files the project writes
# (fuzz/src/make_corpus.rs); the growing corpus stays in target/fuzz/corpus.
# Limits: inputs up to 64 KiB, no single allocation above 64 MiB, 2 GiB RSS
# (a decoder must never allocate much more than its input). Prints one line
# per target (execs, seconds, new corpus size) and appends it to
# target/fuzz/runs.tsv; exits non-zero on the first finding, whose input is
# kept in fuzz/artifacts/TARGET/.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
exec < /dev/null

secs=${1:-60}
shift || true
all=(lsh_snapshot simhash_snapshot minhash_signature multiref_signature model_json reference_json dictionary dictionary_counts compare normalize lines records array_args)
targets=("${all[@]}")
[ $# -gt 0 ] && targets=("$@")

if ! rustup toolchain list | grep -q '^nightly'; then
  echo "[fuzz] no nightly toolchain: cargo-fuzz needs one (it ships with the machine image; none can be fetched)" >&2
  exit 1
fi
bash scripts/setup.sh --cargo-fuzz

out=target/fuzz
mkdir -p "$out/seeds" "$out/corpus"
echo "[fuzz] building the targets and the seed corpus"
# The seeds' writer is an example of the main crate (Cargo.toml): `npm test`
# has built it already, with the same features, in `cargo test --features cli`.
cargo run -q --features cli --example make-corpus -- "$out/seeds" "$PWD"
if ! cargo +nightly fuzz build -O > "$out/build.log" 2>&1; then
  cat "$out/build.log" >&2
  exit 1
fi

# Targets run FUZZ_JOBS at a time (default: one per core; libFuzzer uses
# one core), each its own log; lines are printed in the targets' order.
jobs=${FUZZ_JOBS:-$(nproc)}
run_one() { # TARGET: runs it; its result line in $out/TARGET.line
  local t=$1 log="$out/$1.log"
  mkdir -p "$out/corpus/$t"
  if ! cargo +nightly fuzz run -O "$t" "$out/corpus/$t" "$out/seeds/$t" -- \
      -max_total_time="$secs" -max_len=65536 -malloc_limit_mb=64 -rss_limit_mb=2048 \
      -print_final_stats=1 > "$log" 2>&1; then
    echo "[fuzz] $t FOUND A FAILURE; input in fuzz/artifacts/$t/, log $log:" >&2
    grep -E 'panicked|ERROR|SUMMARY|Test unit written' "$log" | head -20 >&2
    return 1
  fi
  local execs corpus
  execs=$(awk '/stat::number_of_executed_units/ { print $2 }' "$log")
  corpus=$(find "$out/corpus/$t" -type f | wc -l)
  printf '%s\t%s\t%s\t%s\n' "$t" "$execs" "$secs" "$corpus" > "$out/$t.line"
}
rm -f "$out"/*.line
failed=0
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || failed=1; done
  [ $failed = 0 ] || break
  run_one "$t" &
done
while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || failed=1; done
[ $failed = 0 ] || exit 1

printf 'target\texecs\tseconds\tcorpus\n'
for t in "${targets[@]}"; do
  line=$(cat "$out/$t.line")
  echo "$line"
  printf '%s\t%s\n' "$(date -u +%FT%TZ)" "$line" >> "$out/runs.tsv"
done
