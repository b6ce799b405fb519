"""Reading Mitton's misspelling lists (../shared/data/misspellings): shared by
scripts/eval-spell.py and scripts/eval-encoders.py."""


def read_list(path):
    """(misspelling, intended word) pairs, lowercased, from a list in Mitton's
    format ('$word' then its misspellings, one per line); entries whose
    intended word is unknown ('$?') and misspellings equal to the word are
    skipped."""
    pairs, correct = [], None
    for line in open(path, encoding="latin-1"):
        line = line.strip()
        if not line:
            continue
        if line.startswith("$"):
            correct = line[1:].strip().lower()
        elif correct is not None and correct != "?":
            pairs.append((line.split()[0].lower(), correct))
    return [(w, c) for w, c in pairs if w != c]
