#!/usr/bin/env bash
# Builds assets/dictionary-en.bin, the built-in English dictionary of `neardup
# spell` and of the package, from the word-frequency list shipped in the PyPI
# package symspellpy (MIT licence, recorded in assets/dictionary-en.LICENSE):
# frequency_dictionary_en_82_765.txt (Google Books Ngram counts of the SCOWL
# word list). Downloads the pinned wheel with pip (a package registry), reads
# the list out of it, and writes the dictionary with the release CLI.
#   scripts/make-dictionary.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
exec < /dev/null
VERSION=6.9.0
work=target/dictionary
mkdir -p "$work"
if [ ! -f "$work/symspellpy-$VERSION-py3-none-any.whl" ]; then
  python3 -m pip download "symspellpy==$VERSION" --no-deps -d "$work"
fi
python3 - "$work/symspellpy-$VERSION-py3-none-any.whl" "$work" <<'PY'
import sys, zipfile
whl, out = sys.argv[1], sys.argv[2]
z = zipfile.ZipFile(whl)
open(f"{out}/frequency_dictionary_en_82_765.txt", "wb").write(z.read("symspellpy/frequency_dictionary_en_82_765.txt"))
open(f"{out}/LICENSE", "wb").write(z.read(f"symspellpy-{whl.split('-')[1]}.dist-info/LICENSE"))
PY
cargo build --release --features cli -q
target/release/neardup spell --from-counts "$work/frequency_dictionary_en_82_765.txt" -o assets/dictionary-en.bin
{
  echo "assets/dictionary-en.bin is built by scripts/make-dictionary.sh from"
  echo "frequency_dictionary_en_82_765.txt in the PyPI package symspellpy $VERSION,"
  echo "distributed under the following licence:"
  echo
  cat "$work/LICENSE"
} > assets/dictionary-en.LICENSE
