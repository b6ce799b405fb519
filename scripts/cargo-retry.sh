# Sourced by scripts/test.sh and scripts/build-pkg.sh.
#
# On fresh clones here, a cargo command run in a target folder where an
# earlier command ran build scripts sometimes fails at once in cargo's target
# probe (`rustc - --print=cfg` reads stray build-script text as its input),
# So the probes are not cached, and `cargo_ NAME ...` runs the command again
# (up to three times, 30 s apart) on exactly that failure.
export CARGO_CACHE_RUSTC_INFO=0
cargo_() {
  local log status attempt
  shift # the step's name, for the messages of the caller
  log=$(mktemp)
  for attempt in 1 2 3 4; do
    status=0
    cargo "$@" 2>"$log" || status=$?
    cat "$log" >&2
    if [ $status -eq 0 ] || ! grep -q "to learn about target-specific information" "$log"; then
      break
    fi
    echo "[cargo] the rustc probe failed; 'cargo $1' again in 30 s (attempt $attempt)" >&2
    sleep 30
  done
  rm -f "$log"
  return $status
}
