# Sourced by scripts/test.sh and scripts/build-pkg.sh.
#
# During one session here /dev/null had become a regular file, so cargo's
# target probe (`rustc - --print=cfg`, reading /dev/null) was fed stray text
# and failed with "failed to run `rustc` to learn about target-specific
# information". The device was restored; this guard stays: probes are not
# cached, and `cargo_ NAME ...` runs the command again (up to three times,
# 30 s apart) on exactly that failure. If it fires, check `ls -l /dev/null`.
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
