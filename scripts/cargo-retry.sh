# Sourced by scripts/test.sh and scripts/build-pkg.sh.
#
# On fresh clones here, a cargo command run in a target folder where an
# earlier command ran build scripts sometimes fails at once in cargo's target
# probe (`rustc - --print=cfg` reads stray build-script text as its input),
# while the first command in a new folder never did. So `cargo_ NAME ...`
# runs each step in its own folder, target/steps/NAME (dependencies are built
# once per step), the probes are not cached, and the command runs again (up
# to three times, 30 s apart) on exactly that failure.
export CARGO_CACHE_RUSTC_INFO=0
cargo_() {
  local log status attempt dir="target/steps/$1"
  shift
  log=$(mktemp)
  for attempt in 1 2 3 4; do
    status=0
    CARGO_TARGET_DIR="$dir" cargo "$@" 2>"$log" || status=$?
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
