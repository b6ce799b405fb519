#!/usr/bin/env python3
"""Seed 003's Table IV for each phonetic encoder (issue 10): how well "the
dictionary words with the misspelling's phonetic code" retrieve the intended
word, on Mitton's Aspell and Holbrook lists (../shared/data/misspellings).

For each misspelling w (intended word c, not in the dictionary's list of
w itself), the retrieved set S(w) is:
  * "same code": the dictionary words whose code equals w's code;
  * "same code, DL <= 2": those of them within Damerau-Levenshtein (optimal
    string alignment) distance 2 of w — the seed's correction rule.
A misspelling is relevant-retrieved when c is in S(w). Then
  precision = (sum over w of [c in S(w)]) / (sum over w of |S(w)|),
  recall    = (number of w with c in S(w)) / (number of misspellings),
  F         = 2PR / (P + R),
and the mean |S(w)|. Codes come from `neardup phonetic` (the release CLI);
the dictionary is the built-in one's word list (symspellpy's
frequency_dictionary_en_82_765.txt, fetched by scripts/make-dictionary.sh).

    python3 scripts/eval-encoders.py [DATA_DIR]
"""
import collections, os, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import misspellings  # noqa: E402

repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
data = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("NEARDUP_DATA", os.path.join(repo, "..", "shared", "data"))
cli = os.path.join(repo, "target", "release", "neardup")
words_file = os.path.join(repo, "target", "dictionary", "frequency_dictionary_en_82_765.txt")
if not os.path.exists(words_file):
    subprocess.run(["bash", os.path.join(repo, "scripts", "make-dictionary.sh")], check=True, stdin=subprocess.DEVNULL)
ENCODERS = ["soundex", "phonex", "phonix", "metaphone", "dsound", "soundd"]


def read_list(path):
    """Single-word entries of a list (phrases and hyphenated words left out)."""
    return [(w, c) for w, c in misspellings.read_list(path) if w.isalpha() and c.isalpha()]


def codes(words, algorithm):
    out = subprocess.run([cli, "phonetic", "-a", algorithm], input="\n".join(words) + "\n",
                         capture_output=True, text=True, check=True).stdout
    return [line.split("\t")[1] for line in out.splitlines()]


def osa(a, b, limit):
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2, prev = None, list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[-1]


dictionary = [line.split()[0] for line in open(words_file, encoding="utf-8") if line.strip()]
known = set(dictionary)
lists = {name: read_list(os.path.join(data, "misspellings", f)) for name, f in
         [("Aspell", "aspell.dat"), ("Holbrook", "holbrook-missp.dat")]}
print("| list | misspellings | encoder | rule | precision | recall | F | mean suggestions |")
print("|---|---|---|---|---|---|---|---|")
for algorithm in ENCODERS:
    buckets = collections.defaultdict(list)
    for word, code in zip(dictionary, codes(dictionary, algorithm)):
        buckets[code].append(word)
    for name, pairs in lists.items():
        pairs = [(w, c) for w, c in pairs if w not in known]
        wcodes = codes([w for w, _ in pairs], algorithm)
        for rule in ("same code", "same code, DL <= 2"):
            hits = retrieved = 0
            for (w, c), code in zip(pairs, wcodes):
                s = buckets.get(code, [])
                if rule != "same code":
                    s = [x for x in s if osa(w, x, 2) <= 2]
                retrieved += len(s)
                hits += c in s
            p = hits / retrieved if retrieved else 0.0
            r = hits / len(pairs)
            f = 2 * p * r / (p + r) if p + r else 0.0
            print(f"| {name} | {len(pairs)} | {algorithm} | {rule} | {p:.3f} | {r:.3f} | {f:.3f} | {retrieved / len(pairs):.1f} |")
        sys.stdout.flush()
