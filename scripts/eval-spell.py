#!/usr/bin/env python3
"""Dictionary correction on real misspellings (issue 10): for each of Mitton's
lists in ../shared/data/misspellings (Aspell, Holbrook, Birkbeck), the share of
misspellings whose first suggestion is the intended word (top-1 accuracy) and
whose suggestions (up to 10) include it, for `neardup spell`, and side by side
in the same run on the Aspell list, pyspellchecker 0.9.1 (Norvig's method,
distance 2; installed under target/pydeps by this script; about a second per
word, so not run on the larger lists). Misspellings whose intended word is
not in a speller's dictionary still count (as failures), as do phrases
('_'); entries whose intended word is unknown ('$?') are skipped.

    python3 scripts/eval-spell.py [DATA_DIR]     (needs a release CLI)
"""
import os, resource, subprocess, sys, time

repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
data = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("NEARDUP_DATA", os.path.join(repo, "..", "shared", "data"))
deps = os.path.join(repo, "target", "pydeps")
if not os.path.isdir(os.path.join(deps, "spellchecker")):
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--target", deps, "pyspellchecker==0.9.1"], check=True)
sys.path.insert(0, deps)
from spellchecker import SpellChecker  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from misspellings import read_list  # noqa: E402




def neardup(words, n=10):
    out = subprocess.run(
        [os.path.join(repo, "target", "release", "neardup"), "spell", "--candidates", str(n)],
        input="\n".join(words) + "\n", capture_output=True, text=True, check=True,
    ).stdout
    rows = [line.split("\t") for line in out.splitlines()]
    return [[c.rsplit(":", 1)[0] for c in r[1:]] for r in rows]


def pyspell(words, checker, n=10):
    res = []
    for w in words:
        best = checker.correction(w)
        cands = checker.candidates(w) or set()
        ranked = sorted(cands, key=lambda c: -checker.word_usage_frequency(c))
        if best in ranked:
            ranked.remove(best)
        res.append(([best] if best else []) + ranked[: n - 1])
    return res


checker = SpellChecker(distance=2)
print("| list | misspellings | speller | top-1 accuracy | intended word among up to 10 suggestions | CPU s |")
print("|---|---|---|---|---|---|")
for name, file in [("Aspell", "aspell.dat"), ("Holbrook", "holbrook-missp.dat"), ("Birkbeck", "missp.dat")]:
    pairs = read_list(os.path.join(data, "misspellings", file))
    words = [w for w, _ in pairs]
    spellers = [("neardup spell", lambda: neardup(words))]
    if name == "Aspell":
        spellers.append(("pyspellchecker 0.9.1", lambda: pyspell(words, checker)))
    for speller, run in spellers:
        c0 = time.process_time()
        k0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        got = run()
        k1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = time.process_time() - c0 + (k1.ru_utime - k0.ru_utime) + (k1.ru_stime - k0.ru_stime)
        top1 = sum(1 for (w, c), g in zip(pairs, got) if g and g[0] == c) / len(pairs)
        among = sum(1 for (w, c), g in zip(pairs, got) if c in g) / len(pairs)
        print(f"| {name} | {len(pairs):,} | {speller} | {top1:.3f} | {among:.3f} | {cpu:.1f} |", flush=True)
