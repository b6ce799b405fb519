#!/usr/bin/env bash
# The multireference evaluation of EVALUATION.md: MAE against the exact
# 3-gram cosine by reference size and partitions (a reduced genetic
# algorithm: population 50, 20 generations, one run), across corpora
# (docs-bench originals and the Clough-Stevenson texts), and dedup on
# docs-bench. About 15 minutes on 2 cores.
#   cargo build --release --features cli && bash scripts/eval-multiref.sh
set -euo pipefail
cd "$(dirname "$0")/.."
data=${NEARDUP_DATA:-../shared/data}
bin=target/release/neardup
out=target/multiref-eval
mkdir -p "$out"
grep -v '"id": *"sv' "$data/docs-bench/docs.jsonl" > "$out/originals.jsonl"
echo "| R | P | training MAE | held-aside MAE | MAE on Clough texts | seconds |"
echo "|---|---|---|---|---|---|"
for r in 500 1000 2000; do
  for p in 50 150 300; do
    ref="$out/ref-$r-$p.json"
    line=$($bin multiref train --corpus "$out/originals.jsonl" -o "$ref" --grams $r --partitions $p \
      --population 50 --generations 20 --runs 1 2>&1 | tr '\r' '\n' | grep 'held-aside MAE')
    clough=$($bin multiref eval --corpus "$data/clough-abc/texts" --reference "$ref" | sed 's/.*"mae":\([0-9.]*\).*/\1/')
    train=$(echo "$line" | sed 's/.*training MAE \([0-9.]*\).*/\1/')
    held=$(echo "$line" | sed 's/.*held-aside MAE \([0-9.]*\).*/\1/')
    secs=$(echo "$line" | sed 's/.* in \([0-9]*\) s.*/\1/')
    echo "| $r | $p | $train | $held | $(printf %.4f "$clough") | $secs |"
  done
done
echo
echo "Trained on the Clough-Stevenson texts, tested on docs-bench originals (R 1000, P 150):"
$bin multiref train --corpus "$data/clough-abc/texts" -o "$out/ref-clough.json" --population 50 --generations 20 --runs 1 2>&1 | tr '\r' '\n' | grep 'held-aside'
$bin multiref eval --corpus "$out/originals.jsonl" --reference "$out/ref-clough.json"
echo "The shipped reference (assets/multiref.json) on each corpus:"
$bin multiref eval --corpus "$out/originals.jsonl" --reference assets/multiref.json
$bin multiref eval --corpus "$data/clough-abc/texts" --reference assets/multiref.json
echo
echo "dedup on docs-bench:"
for args in "--method multiref" "--method multiref -k 12" "--method multiref --verify" "--method multiref -k 12 --verify"; do
  $bin dedup "$data/docs-bench/docs.jsonl" $args --truth "$data/docs-bench/pairs.tsv" -o /dev/null 2>&1 | grep -E 'true pairs|documents' | tr '\n' ' '
  echo " [$args]"
done
