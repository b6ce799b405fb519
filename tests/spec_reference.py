"""An independent reference implementation of SPEC.md, in plain Python.

Written from the text of SPEC.md alone (not from the Rust), to check the
golden files: where this and a golden value disagree, the spec or the code is
wrong. Standard library only (``zlib.crc32`` is CRC-32/IEEE), but for spec
version 2's XXH3-64, taken from the ``xxhash`` package (bindings to the
reference C implementation of the xxHash specification; version 2's
polynomial is written out here).

Covered: the hash (§2), diacritics folded (§1, from each golden text's
tokens), word and character shingles (§3, versions 1 and 2), MinHash
signatures and their bytes in both schemes (§8), LSH band keys (§9), SimHash
fingerprints and the Hamming index's table keys (§10), American Soundex,
Phonex, DSound / SoundD and Phonix (§13; Phonix's 88 rules are read from
SPEC.md's table itself), and the dedup stages' MinHash band keys
(§14).

Not covered, and why:

* Normalisation (§1) needs UAX #29 word segmentation and Unicode 16 tables;
  no library in the standard library provides them (``unicodedata`` follows
  the interpreter's older Unicode version). As the issue allows, a text's
  tokens are read from ``spec-v1.json``'s ``normalized`` field when the golden
  file has that text, and computed here only for plain ASCII texts, whose rules
  (§1's ASCII fast path, UAX #29 on ASCII) are small enough to write down.
* Step 0 of §1, unmasking, is covered for its invisible characters only
  (``DEFAULT_IGNORABLE`` below, the ``Default_Ignorable_Code_Point`` ranges
  of Unicode's ``DerivedCoreProperties.txt``, and ``unmask_invisible``):
  the look-alike letters need UTS #39's ``confusables.txt`` and UAX #24's
  scripts, which the standard library does not have.
* Double Metaphone (§13): its reference is a long C++ program (dmetaph.cpp),
  not rewritten here. ``test_spec_reference.py`` holds the golden codes, and
  the CLI's codes of 5,898 real words, against the ``Metaphone`` package, a
  Python port of dmetaph.cpp by other authors; the 25 words where that port
  departs from dmetaph.cpp are listed there with the C++ rule that decides
  them.

Phonix and Double Metaphone are also checked on those 5,898 words (the
correct words of Birkbeck's misspelling corpus) against the CLI.
"""

import re
import zlib

import xxhash

M64 = (1 << 64) - 1
FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x00000100000001B3


# §2 The hash -----------------------------------------------------------------


def fnv1a64(seed, data):
    h = FNV_OFFSET ^ seed
    for b in data:
        h = ((h ^ b) * FNV_PRIME) & M64
    return h


def fmix64(k):
    k ^= k >> 33
    k = (k * 0xFF51AFD7ED558CCD) & M64
    k ^= k >> 33
    k = (k * 0xC4CEB9FE1A85EC53) & M64
    k ^= k >> 33
    return k


def bytes_hash(seed, data):
    return fmix64(fnv1a64(seed, data))


def combine(seed, values):
    h = seed
    for t in values:
        h = fmix64(h ^ t)
    return h


class SplitMix64:
    """§8's generator: state += golden gamma, then the SplitMix64 mix."""

    def __init__(self, state):
        self.state = state & M64

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & M64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)


# §1 Normalisation, ASCII only --------------------------------------------------


# Default_Ignorable_Code_Point (Unicode DerivedCoreProperties.txt), as
# ranges of code points, inclusive.
DEFAULT_IGNORABLE = [
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
]


def is_default_ignorable(c):
    u = ord(c)
    return any(lo <= u <= hi for lo, hi in DEFAULT_IGNORABLE)


def unmask_invisible(text):
    """§1 step 0 for a text with no letter of another script: the text with
    its invisible characters removed, the number removed between two ASCII
    letters or digits (counted), and their byte ranges in ``text``, merged
    where adjacent."""
    out, counted, ranges = [], 0, []
    chars = list(text)
    at = 0
    for i, c in enumerate(chars):
        size = len(c.encode("utf-8"))
        if is_default_ignorable(c):
            before = next((x for x in reversed(chars[:i]) if not is_default_ignorable(x)), "")
            after = next((x for x in chars[i + 1:] if not is_default_ignorable(x)), "")
            if before.isascii() and before.isalnum() and after.isascii() and after.isalnum():
                counted += 1
                if ranges and ranges[-1][1] == at:
                    ranges[-1][1] = at + size
                else:
                    ranges.append([at, at + size])
        else:
            out.append(c)
        at += size
    return "".join(out), counted, ranges


def ascii_tokens(text):
    """Word tokens of a plain ASCII text: UAX #29 word boundaries on ASCII
    (letters and digits join; ``'`` and ``.`` join letters to letters and
    digits to digits — MidNumLet; ``:`` letters to letters — MidLetter; ``,``
    and ``;`` digits to digits — MidNum; ``_`` joins anything word-like —
    ExtendNumLet), then lower case with ASCII punctuation removed; segments
    without a letter or digit are dropped."""
    assert text.isascii()
    n = len(text)

    def kind(c):
        if c.isalpha():
            return "L"
        if c.isdigit():
            return "N"
        if c == "_":
            return "X"
        if c in "'.":
            return "MNL"
        if c == ":":
            return "ML"
        if c in ",;":
            return "MN"
        return None

    tokens, i = [], 0
    while i < n:
        if kind(text[i]) not in ("L", "N", "X"):
            i += 1
            continue
        j = i + 1
        while j < n:
            k = kind(text[j])
            if k in ("L", "N", "X"):
                j += 1
                continue
            # A middle character joins when it sits between the right kinds.
            if k in ("MNL", "ML", "MN") and j + 1 < n:
                before, after = kind(text[j - 1]), kind(text[j + 1])
                letters = before == "L" and after == "L" and k in ("MNL", "ML")
                digits = before == "N" and after == "N" and k in ("MNL", "MN")
                if letters or digits:
                    j += 2
                    continue
            break
        segment = "".join(c.lower() for c in text[i:j] if c.isalnum())
        if segment:
            tokens.append(segment)
        i = j
    return tokens


# §3 Shingles -----------------------------------------------------------------


POLY_BASE = 0x9E3779B97F4A7C15  # version 2's polynomial base P


def string_hash(seed, data, version=1):
    """A byte string's hash: version 1 FNV-1a + fmix64, version 2 XXH3-64."""
    if version == 1:
        return bytes_hash(seed, data)
    return xxhash.xxh3_64_intdigest(data, seed=seed)


def window_hash(seed, values, version=1):
    """One word shingle from its token hashes: version 1 `combine`, version 2
    fmix64(seed ^ sum of t_m * P^(k-1-m) mod 2^64), computed afresh."""
    if version == 1:
        return combine(seed, values)
    h = 0
    for t in values:
        h = (h * POLY_BASE + t) & M64
    return fmix64(seed ^ h)


def token_hashes(tokens, seed, version=1):
    return [string_hash(seed, t.encode(), version) for t in tokens]


def word_shingles(tokens, k, seed, version=1):
    t = token_hashes(tokens, seed, version)
    if not t:
        return []
    if len(t) < k:
        return [window_hash(seed, t, version)]
    return [window_hash(seed, t[i : i + k], version) for i in range(len(t) - k + 1)]


def char_shingles(normalized, q, seed, version=1):
    chars = list(normalized)
    if not chars:
        return []
    if len(chars) < q:
        return [string_hash(seed, normalized.encode(), version)]
    return [
        string_hash(seed, "".join(chars[i : i + q]).encode(), version)
        for i in range(len(chars) - q + 1)
    ]


def shingles(tokens, spec, seed, version=1):
    kind, size = spec.split(":")
    size = int(size)
    if kind == "word":
        return word_shingles(tokens, size, seed, version)
    if kind == "char":
        return char_shingles(" ".join(tokens), size, seed, version)
    raise ValueError(f"shingling {spec} is not covered here")


# §1 Diacritics folded (the `foldDiacritics` normalisation) -----------------

FOLD_SPECIAL = {
    "ä": "ae", "ö": "oe", "ü": "ue", "æ": "ae", "œ": "oe", "ø": "o", "đ": "d",
    "ð": "d", "ħ": "h", "ı": "i", "ł": "l", "ŧ": "t", "þ": "th",
}


def fold_diacritics(token):
    """A normalised token with its diacritics folded, as §1 says: the
    letters of the table as written there, every other character's
    canonical decomposition without U+0300–U+036F, then NFKC."""
    import unicodedata

    out = []
    for c in token:
        if c in FOLD_SPECIAL:
            out.append(FOLD_SPECIAL[c])
        else:
            out.append("".join(d for d in unicodedata.normalize("NFD", c) if not 0x300 <= ord(d) <= 0x36F))
    return unicodedata.normalize("NFKC", "".join(out))


# §8 MinHash ------------------------------------------------------------------

EMPTY = 0xFFFFFFFF


def minhash_classic(xs, num_perm, seed):
    rng = SplitMix64(seed ^ 0x6D696E6861736821)
    coefficients = []
    for _ in range(num_perm):
        a = rng.next() | 1
        b = rng.next()
        coefficients.append((a, b))
    xs = set(xs)
    if not xs:
        return [EMPTY] * num_perm
    return [min((((a * x + b) & M64) >> 32) for x in xs) for a, b in coefficients]


def minhash_oph_bins(xs, num_perm, seed):
    """The bins before densification (empty: 0xffffffff)."""
    rng = SplitMix64(seed ^ 0x6F6E655F7065726D)
    key = rng.next()
    k = num_perm
    bins = [EMPTY] * k
    for x in set(xs):
        h = fmix64(x ^ key)
        b = ((h >> 32) * k) >> 32
        v = min(h & 0xFFFFFFFF, 0xFFFFFFFE)
        bins[b] = min(bins[b], v)
    return bins


def densify(bins, seed):
    rng = SplitMix64(seed ^ 0x6F6E655F7065726D)
    rng.next()
    dkey = rng.next()
    k = len(bins)
    if all(v == EMPTY for v in bins):
        return list(bins)
    out = list(bins)
    for i in range(k):
        if bins[i] != EMPTY:
            continue
        for t in range(1, 64 * k + 1):
            j = ((fmix64(dkey ^ ((i * (1 << 32) + t) & M64)) >> 32) * k) >> 32
            if bins[j] != EMPTY:
                out[i] = bins[j]
                break
        else:
            for d in range(1, k):
                j = (i + d) % k
                if bins[j] != EMPTY:
                    out[i] = bins[j]
                    break
    return out


SHINGLING_CODE = {"custom": 0, "word": 1, "char": 2}


def signature_bytes(values, num_perm, seed, spec, scheme, spec_version=1):
    """§8's bytes: format 1 for classic, 2 (with a scheme byte) for oph."""
    kind, size = spec.split(":")
    fmt = 1 if scheme == "classic" else 2
    out = b"NDMH" + fmt.to_bytes(2, "little") + spec_version.to_bytes(2, "little")
    out += num_perm.to_bytes(4, "little") + seed.to_bytes(8, "little")
    out += bytes([SHINGLING_CODE[kind], int(size)])
    if fmt == 2:
        out += bytes([0 if scheme == "classic" else 1])
    out += b"".join(v.to_bytes(4, "little") for v in values)
    return out + zlib.crc32(out).to_bytes(4, "little")


def minhash(tokens, num_perm, seed, spec, scheme, version=1):
    """(values after densification, bytes) of a text's tokens, its shingles
    hashed under spec version `version`."""
    xs = shingles(tokens, spec, seed, version)
    if scheme == "classic":
        values = minhash_classic(xs, num_perm, seed)
        return values, signature_bytes(values, num_perm, seed, spec, scheme, version)
    bins = minhash_oph_bins(xs, num_perm, seed)
    return densify(bins, seed), signature_bytes(bins, num_perm, seed, spec, scheme, version)


# §9 LSH bands ----------------------------------------------------------------


def rows_of(num_perm, bands):
    q, extra = divmod(num_perm, bands)
    return [q + 1 if j < extra else q for j in range(bands)]


def band_keys(values, bands):
    if all(v == EMPTY for v in values):
        return []
    keys, at = [], 0
    for j, r in enumerate(rows_of(len(values), bands)):
        keys.append(combine(j, values[at : at + r]))
        at += r
    return keys


# §10 SimHash -----------------------------------------------------------------


def simhash(features, weights):
    if weights == "binary":
        features = sorted(set(features))
    v = [0] * 64
    for f in features:
        for i in range(64):
            v[i] += 1 if (f >> i) & 1 else -1
    return sum(1 << i for i in range(64) if v[i] > 0)


# §14 tf-idf weights ------------------------------------------------------------


def frequencies_digest(n, counts):
    """The document frequencies' digest: combine(0x6e64646672657131, [N])
    chained over (term, df) in ascending term order."""
    h = combine(0x6E64646672657131, [n])
    for term, df in sorted(counts.items()):
        h = combine(h, [term, df])
    return h


def read_frequencies(data):
    """The frequencies' bytes (format 1): N and {term: df}, after checking
    the framing of §4 (magic, versions, CRC-32)."""
    import struct
    import zlib

    assert data[:4] == b"NDDF" and struct.unpack_from("<HH", data, 4) == (1, 1)
    assert zlib.crc32(data[:-4]) == struct.unpack_from("<I", data, len(data) - 4)[0]
    n, count = struct.unpack_from("<QQ", data, 8)
    counts, at = {}, 24
    for _ in range(count):
        term, df = struct.unpack_from("<QI", data, at)
        counts[term] = df
        at += 12
    assert at == len(data) - 4
    return n, counts


def tfidf_simhash(shingles, n, counts):
    """§10's weighted fingerprint of a document's distinct shingles in
    ascending order, each weighing tf · idf, idf(t) = ln((1 + N) / (1 +
    df(t))) + 1, the sums in f64 in that order."""
    import math

    tf = {}
    for h in shingles:
        tf[h] = tf.get(h, 0) + 1
    v = [0.0] * 64
    for h in sorted(tf):
        w = tf[h] * (math.log((1.0 + n) / (1.0 + counts.get(h, 0))) + 1.0)
        for i in range(64):
            v[i] += w if (h >> i) & 1 else -w
    return sum(1 << i for i in range(64) if v[i] > 0)


def blocks_of(b):
    """Consecutive bit ranges from bit 0, the first 64 mod b one bit longer:
    (start, length) per block."""
    q, extra = divmod(64, b)
    out, at = [], 0
    for j in range(b):
        n = q + 1 if j < extra else q
        out.append((at, n))
        at += n
    return out


def combinations(n, r):
    """r-subsets of range(n) in lexicographic order."""
    if r == 0:
        yield ()
        return
    for first in range(n):
        for rest in combinations(n - first - 1, r - 1):
            yield (first,) + tuple(first + 1 + x for x in rest)


def table_keys(fingerprint, max_k, blocks):
    spans = blocks_of(blocks)
    keys = []
    for t, chosen in enumerate(combinations(blocks, blocks - max_k)):
        key = 0
        for j in chosen:
            start, length = spans[j]
            key = (key << length) | ((fingerprint >> start) & ((1 << length) - 1))
        keys.append(combine(t, [key]))
    return keys


# §13 Phonetic codes (Soundex, DSound, SoundD) ----------------------------------


def fold_ascii(word):
    """§13's folding, for words of ASCII letters only (others: None)."""
    letters = "".join(c.lower() for c in word if c.isascii() and c.isalpha())
    if any(not c.isascii() for c in word):
        return None
    return letters


SOUNDEX = {**dict.fromkeys("bfpv", "1"), **dict.fromkeys("cgjkqsxz", "2"), **dict.fromkeys("dt", "3"),
           "l": "4", **dict.fromkeys("mn", "5"), "r": "6"}


def soundex(word):
    w = fold_ascii(word)
    if w is None:
        return None
    if not w:
        return word
    out, last = w[0].upper(), SOUNDEX.get(w[0])
    for c in w[1:]:
        if len(out) == 4:
            break
        if c in "hw":
            continue
        d = SOUNDEX.get(c)
        if d is None:  # a vowel: separates
            last = None
            continue
        if d != last:
            out += d
        last = d
    return out.ljust(4, "0")


DIGIT = {**dict.fromkeys("aeiouyhw", "0"), **SOUNDEX}


def dsound(word):
    w = fold_ascii(word)
    if w is None:
        return None
    if not w:
        return word
    if w[:2] in ("kn", "gn", "pn", "ac", "wr"):
        w = w[1:]
    elif w.startswith("x"):
        w = "s" + w[1:]
    elif w.startswith("wh"):
        w = "w" + w[2:]
    out, last, i = "", None, 0
    while i < len(w):
        c = w[i]
        if w[i : i + 2] == "dg" and w[i + 2 : i + 3] in ("e", "i") and w[i + 2 : i + 3]:
            d, step = DIGIT["j"], 2
        elif w[i : i + 2] == "gh":
            d, step = "0", 2
        elif c == "t" and w[i + 1 : i + 3] in ("ia", "io"):
            d, step = DIGIT["s"], 1
        else:
            d, step = DIGIT[c], 1
        if d != last:
            out += d
        last = d
        i += step
    return out


def soundd(word):
    code = dsound(word)
    if code is None or not fold_ascii(word):
        return code
    return code.replace("0", "").ljust(4, "0")[:4]


PHONEX_FIRST = {**dict.fromkeys("aeiouy", "A"), **dict.fromkeys("bp", "B"), **dict.fromkeys("fv", "F"),
                **dict.fromkeys("ckq", "C"), **dict.fromkeys("gj", "G"), **dict.fromkeys("sz", "S")}


def phonex(word):
    """§13's Phonex (Lait & Randell 1996), from the spec's rules."""
    w = fold_ascii(word)
    if w is None:
        return None
    if not w:
        return word
    w = w.rstrip("s")
    for prefix, to in (("kn", "n"), ("ph", "f"), ("wr", "r")):
        if w.startswith(prefix):
            w = to + w[len(prefix):]
            break
    if w.startswith("h"):
        w = w[1:]
    if not w:
        return ""
    out, last = PHONEX_FIRST.get(w[0], w[0].upper()), None
    vowels = "aeiouy"
    for i in range(1, len(w)):
        c, nxt = w[i], w[i + 1] if i + 1 < len(w) else None
        if c in "dg" and w[i - 1] in "mn":
            c = w[i - 1]  # read as that m or n
        if c in "bfpv":
            d = "1"
        elif c in "cgjkqsxz":
            d = "2"
        elif c in "dt":
            d = None if nxt == "c" else "3"
        elif c == "l":
            d = "4" if nxt is None or nxt in vowels else None
        elif c == "r":
            d = "6" if nxt is None or nxt in vowels else None
        elif c in "mn":
            d = "5"
        else:
            d = None
        if d is not None and d != last:
            out += d
        if d is not None:
            last = d
    return out


# §13 Phonix: the rule table is read from SPEC.md, so the spec's text is the
# one list; the matching below follows the spec's prose.

PHONIX_VOWELS = "AEIOU"
PHONIX_DIGIT = {**dict.fromkeys("BP", "1"), **dict.fromkeys("CGJKQ", "2"), **dict.fromkeys("DT", "3"),
                "L": "4", **dict.fromkeys("MN", "5"), "R": "6", **dict.fromkeys("FV", "7"),
                **dict.fromkeys("SXZ", "8")}


def phonix_rules(spec_text):
    """The (start, before, letters, after, end, by) rules of SPEC.md §13's table."""
    section = spec_text[spec_text.index("**Phonix**"):spec_text.index("**Double Metaphone**")]
    block = section.split("```")[1]
    rules = []
    for pattern, by in re.findall(r"(\S+) → (\S+)", block):
        start = pattern.startswith("^")
        p = pattern[1:] if start else pattern
        before = p[0] if p[0] in "vc." else None
        p = p[1:] if before else p
        end = p.endswith("$")
        p = p[:-1] if end else p
        after = p[-1] if p[-1] in "vc." else None
        p = p[:-1] if after else p
        assert p.isupper() and p.isalpha(), pattern
        rules.append((start, before, p, after, end, "" if by == "∅" else by))
    return rules


def _admits(cls, letter):
    return {"v": letter in PHONIX_VOWELS, "c": letter not in PHONIX_VOWELS, ".": True}[cls]


def _phonix_match(rule, w, i):
    """The end of a match of `rule` starting at `i` (context letters included), or None."""
    start, before, letters, after, end, _ = rule
    if start and i != 0:
        return None
    j = i
    if before:
        if j >= len(w) or not _admits(before, w[j]):
            return None
        j += 1
    if not w.startswith(letters, j):
        return None
    j += len(letters)
    if after:
        if j >= len(w) or not _admits(after, w[j]):
            return None
        j += 1
    if end and j != len(w):
        return None
    return j


def phonix(word, rules):
    """§13's Phonix (Gadd 1990) with the rules of ``phonix_rules``."""
    w = fold_ascii(word)
    if w is None:
        return None
    if not w:
        return word
    folded = w.upper()
    w = folded
    for rule in rules:
        out, i = "", 0
        while i < len(w):
            j = _phonix_match(rule, w, i)
            if j is None:
                out += w[i]
                i += 1
                continue
            out += (w[i] if rule[1] else "") + rule[5] + (w[j - 1] if rule[3] else "")
            i = j
        w = out
    first = w[0] if w else folded[0]
    code = "v" if first in "AEIOUY" else first
    last = None
    for c in w[1:]:
        if c in "AEIOUYHW" or c == last:
            continue
        last = c
        code += PHONIX_DIGIT[c]
    return code[:8].ljust(8, "0")
