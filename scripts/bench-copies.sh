#!/usr/bin/env bash
# Groups of copies (issue 35): CPU time and peak memory of deduplicating N
# copies of one line, and N near copies (each with a word of its own), with
# the CLI, the npm package under Node and the Python package, each run in
# turn (interleaved) three times; prints one TSV row per run.
#   bash scripts/bench-copies.sh              # this checkout's builds
#   OLD=/path/to/older/neardup bash scripts/bench-copies.sh   # and an older CLI beside it
# Needs: cargo build --release --features cli, scripts/build-pkg.sh, .venv with neardup.
set -euo pipefail
cd "$(dirname "$0")/.."
NEW=target/release/neardup
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
line='Home | About us | Contact | Terms of service | Privacy policy | Careers | Press'
for n in 10000 20000 100000; do
  awk -v n="$n" -v l="$line" 'BEGIN { for (i = 0; i < n; i++) printf "{\"id\":\"c%d\",\"text\":\"%s\"}\n", i, l }' > "$tmp/copies-$n.jsonl"
  awk -v n="$n" -v l="$line" 'BEGIN { for (i = 0; i < n; i++) printf "{\"id\":\"n%d\",\"text\":\"%s (mirror %d)\"}\n", i, l, i }' > "$tmp/near-$n.jsonl"
done
measure() { # label, command...
  local label=$1; shift
  /usr/bin/time -f "%U %S %M" -o "$tmp/time" "$@" > /dev/null 2> "$tmp/err" || { echo "$label failed: $(tail -1 "$tmp/err")" >&2; return; }
  read -r user sys rss < "$tmp/time"
  printf '%s\t%.2f\t%d\n' "$label" "$(echo "$user + $sys" | bc)" "$((rss / 1024))"
}
node_dedup='import { dedup } from "./pkg/node.js"; import { readFileSync } from "node:fs";
const docs = readFileSync(process.argv[1], "utf8").trim().split("\n").map((l) => JSON.parse(l));
const r = dedup(docs); console.log(JSON.stringify(r.summary));'
py_dedup='import json, sys, neardup
rows = [json.loads(l) for l in open(sys.argv[1])]
print(neardup.dedup([r["text"] for r in rows], ids=[r["id"] for r in rows]).summary)'
printf 'run\tCPU s\tpeak MB\n'
for round in 1 2 3; do
  for kind in copies near; do
    for n in 10000 20000 100000; do
      f="$tmp/$kind-$n.jsonl"
      measure "cli $kind $n" "$NEW" dedup "$f"
      if [ -n "${OLD:-}" ] && [ "$n" -le 20000 ]; then measure "old-cli $kind $n" "$OLD" dedup "$f"; fi
      measure "npm $kind $n" node --input-type=module -e "$node_dedup" "$f"
      measure "python $kind $n" .venv/bin/python -c "$py_dedup" "$f"
    done
  done
done
