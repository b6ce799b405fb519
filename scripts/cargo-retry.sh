# Sourced by scripts/test.sh and scripts/build-pkg.sh.
# On fresh clones here, the first cargo command after one that ran build
# scripts sometimes fails at once in cargo's target probe (`rustc -
# --print=cfg` reads stray build-script text as its input); run again, it
# passes. `cargo_` runs cargo, and once more on exactly that failure.
cargo_() {
  local log status=0
  log=$(mktemp)
  cargo "$@" 2>"$log" || status=$?
  cat "$log" >&2
  if [ $status -ne 0 ] && grep -q "to learn about target-specific information" "$log"; then
    echo "[test] cargo's rustc probe failed; running 'cargo $1' again" >&2
    status=0
    cargo "$@" || status=$?
  fi
  rm -f "$log"
  return $status
}
