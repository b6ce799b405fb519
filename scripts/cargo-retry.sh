# Sourced by scripts/test.sh and scripts/build-pkg.sh.
#
# On fresh clones here, the first cargo command after one that ran build
# scripts sometimes fails at once in cargo's target probe (`rustc -
# --print=cfg` reads stray build-script text as its input) — and cargo caches
# the failed probe. So the probes are not cached, and `cargo_` runs cargo
# again (up to twice, after a pause) on exactly that failure.
export CARGO_CACHE_RUSTC_INFO=0
cargo_() {
  local log status attempt
  log=$(mktemp)
  for attempt in 1 2 3; do
    status=0
    cargo "$@" 2>"$log" || status=$?
    cat "$log" >&2
    if [ $status -eq 0 ] || ! grep -q "to learn about target-specific information" "$log"; then
      break
    fi
    echo "[cargo] the rustc probe failed; 'cargo $1' again in 5 s (attempt $attempt)" >&2
    sleep 5
  done
  rm -f "$log"
  return $status
}
