#!/usr/bin/env bash
# Issue 50's ratio check, interleaved: gaoya 0.2.2 alone in a binary of its
# own (benches/gaoya_anchor.rs), then neardup's jobs (benches/dedup_anchor.rs:
# the whole job at spec 2 and the pipeline at its defaults), then the CLI
# `neardup dedup` at its defaults and with --shingle word:5, ROUNDS times in
# turn. Prints each round's CPU seconds and neardup's CPU as a fraction of the
# gaoya run just before it (char:5 against gaoya's 5-grams, word:5 against
# its word 5-shingles), then the range of each ratio over the rounds.
#   bash scripts/bench-anchor.sh [ROUNDS]        (default 3; about 1 min a round)
# CPU: the benches' median of 5 rounds of their thread's CPU time; the CLI's
# user + system seconds (all threads), the median of 3 runs. NEARDUP_DATA as
# for the benches.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-3}"
data="${NEARDUP_DATA:-../shared/data}"
docs="$data/docs-bench/docs.jsonl"
[ -f "$docs" ] || { echo "bench-anchor: $docs not found (set NEARDUP_DATA)" >&2; exit 2; }

bin() { cargo bench --features serde --bench "$1" --no-run 2>&1 | sed -n 's/.*Executable .*(\(.*\))/\1/p'; }
cargo build --release --features cli --quiet
gaoya=$(bin gaoya_anchor)
neardup=$(bin dedup_anchor)
[ -x "$gaoya" ] && [ -x "$neardup" ] || { echo "bench-anchor: the bench binaries did not build" >&2; exit 1; }

# The CPU seconds of a job's row: `| name | cpu | ...`.
cpu_of() { awk -F'|' -v job="$1" 'index($2, job) { gsub(/ /, "", $3); print $3; exit }'; }
# The CLI's user + system seconds, the median of three runs.
cli_cpu() {
  local t=() s
  for _ in 1 2 3; do
    s=$( { TIMEFORMAT='%U %S'; time target/release/neardup dedup "$docs" "$@" -o /dev/null 2>/dev/null; } 2>&1 | awk '{ print $1 + $2 }')
    t+=("$s")
  done
  printf '%s\n' "${t[@]}" | sort -g | sed -n 2p
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

# Which kernels run: the q-grams' and words' folds have AVX-512 and AVX2
# forms, detected at run time (BENCHMARKS.md, "AVX2 where AVX-512 is
# missing"); the ratios differ by machine. NEARDUP_DISABLE_CPU_FEATURES
# (avx512, or avx2 for the portable code) switches tiers off in neardup's
# binaries, as on a CPU without them (BENCHMARKS.md, "Without AVX-512");
# gaoya's code does not read it.
flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null || true)
off=" $(tr ',A-Z' ' a-z' <<<"${NEARDUP_DISABLE_CPU_FEATURES:-}") "
kernels="portable"
[[ " $flags " == *" avx2 "* && "$off" != *" avx2 "* ]] && kernels="AVX2"
[[ " $flags " == *" avx512f "* && " $flags " == *" avx512bw "* && " $flags " == *" avx512dq "* \
   && "$off" != *" avx512 "* && "$off" != *" avx2 "* ]] && kernels="AVX-512"
[ -n "${NEARDUP_DISABLE_CPU_FEATURES:-}" ] && kernels="$kernels (NEARDUP_DISABLE_CPU_FEATURES=$NEARDUP_DISABLE_CPU_FEATURES)"
echo "CPU: $(grep -m1 '^model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ //'); kernels: $kernels"
echo
echo "| round | gaoya 5-grams | gaoya words | char:5 spec 2 | pipeline char:5 | CLI char:5 | word:5 spec 2 | pipeline word:5 | CLI word:5 |"
echo "|---|---|---|---|---|---|---|---|---|"
results=()
for r in $(seq 1 "$rounds"); do
  g=$("$gaoya")
  gc=$(cpu_of "gaoya 5-grams" <<<"$g")
  gw=$(cpu_of "gaoya word 5-shingles" <<<"$g")
  n=$("$neardup" "spec 2" pipeline)
  nc=$(cpu_of "neardup char:5 oph, spec 2" <<<"$n")
  pc=$(cpu_of "pipeline, the defaults (char:5)" <<<"$n")
  nw=$(cpu_of "neardup word:5 oph, spec 2" <<<"$n")
  pw=$(cpu_of "pipeline, the defaults but word:5" <<<"$n")
  cc=$(cli_cpu)
  cw=$(cli_cpu --shingle word:5)
  echo "| $r | $gc s | $gw s | $nc s, $(ratio "$nc" "$gc")× | $pc s, $(ratio "$pc" "$gc")× | $cc s, $(ratio "$cc" "$gc")× | $nw s, $(ratio "$nw" "$gw")× | $pw s, $(ratio "$pw" "$gw")× | $cw s, $(ratio "$cw" "$gw")× |"
  results+=("$(ratio "$nc" "$gc") $(ratio "$pc" "$gc") $(ratio "$cc" "$gc") $(ratio "$nw" "$gw") $(ratio "$pw" "$gw") $(ratio "$cw" "$gw")")
done
echo
echo "Ratios over the rounds (min–max; targets: char:5 ≤ 0.08, word:5 ≤ 0.15):"
printf '%s\n' "${results[@]}" | awk '
  { for (i = 1; i <= 6; i++) { if (NR == 1 || $i < lo[i]) lo[i] = $i; if (NR == 1 || $i > hi[i]) hi[i] = $i } }
  END {
    split("char:5 spec 2,pipeline char:5,CLI char:5,word:5 spec 2,pipeline word:5,CLI word:5", name, ",")
    for (i = 1; i <= 6; i++) printf "  %-16s %.3f–%.3f\n", name[i], lo[i], hi[i]
  }'
