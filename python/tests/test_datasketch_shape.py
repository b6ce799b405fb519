"""MinHash and MinHashLSH behave as datasketch documents its own: estimates
within their error bounds, LSH candidates, errors on mismatched num_perm."""

import math
import pickle
import random

import pytest

import neardup
from neardup import MinHash, MinHashLSH


def sets_with_jaccard(rng, j, n=2000):
    """Two token sets whose exact Jaccard is j (shared part + distinct parts)."""
    shared = int(round(n * 2 * j / (1 + j)))
    own = n - shared
    common = [f"c{rng.random()}" for _ in range(shared)]
    return common + [f"a{i}" for i in range(own)], common + [f"b{i}" for i in range(own)]


@pytest.mark.parametrize("scheme", ["classic", "oph"])
def test_estimates_are_within_their_standard_error(scheme):
    rng = random.Random(1)
    for j in (0.1, 0.5, 0.8):
        a, b = sets_with_jaccard(rng, j)
        exact = len(set(a) & set(b)) / len(set(a) | set(b))
        errors = []
        for seed in range(8):
            m1, m2 = MinHash(num_perm=256, seed=seed, scheme=scheme), MinHash(num_perm=256, seed=seed, scheme=scheme)
            m1.update_batch([t.encode() for t in a])
            for t in b:
                m2.update(t.encode())
            errors.append(m1.jaccard(m2) - exact)
        se = math.sqrt(exact * (1 - exact) / 256)
        # Each within 4 standard errors; the mean within 2 (unbiased).
        assert all(abs(e) <= 4 * se for e in errors), (j, errors)
        assert abs(sum(errors) / len(errors)) <= 2 * se, (j, errors)


def test_datasketch_readme_example_lsh_candidates():
    # datasketch's own README example: set1 and set2 share most words.
    set1 = set(["minhash", "is", "a", "probabilistic", "data", "structure", "for", "estimating", "the", "similarity", "between", "datasets"])
    set2 = set(["minhash", "is", "a", "probability", "data", "structure", "for", "estimating", "the", "similarity", "between", "documents"])
    set3 = set(["minhash", "is", "probability", "data", "structure", "for", "estimating", "the", "similarity", "between", "documents"])
    m1, m2, m3 = MinHash(num_perm=128), MinHash(num_perm=128), MinHash(num_perm=128)
    for d in set1:
        m1.update(d.encode("utf8"))
    for d in set2:
        m2.update(d.encode("utf8"))
    for d in set3:
        m3.update(d.encode("utf8"))
    lsh = MinHashLSH(threshold=0.5, num_perm=128)
    lsh.insert("m2", m2)
    lsh.insert("m3", m3)
    assert set(lsh.query(m1)) >= {"m3"}
    assert "m2" in lsh and "m1" not in lsh and len(lsh) == 2
    lsh.remove("m2")
    assert "m2" not in lsh
    with pytest.raises(ValueError):
        lsh.remove("m2")
    with pytest.raises(ValueError, match="already"):
        lsh.insert("m3", m3)
    bands, rows = lsh.params
    assert sum(rows) <= 128 and len(rows) == bands


def test_mismatched_num_perm_is_an_error():
    m64, m128 = MinHash(num_perm=64), MinHash(num_perm=128)
    m64.update(b"x")
    m128.update(b"x")
    with pytest.raises(ValueError, match="num_perm"):
        m64.jaccard(m128)
    with pytest.raises(ValueError, match="num_perm"):
        m64.merge(m128)
    lsh = MinHashLSH(threshold=0.5, num_perm=128)
    with pytest.raises(ValueError, match="num_perm"):
        lsh.insert("a", m64)
    with pytest.raises(ValueError):
        MinHash(num_perm=0)
    with pytest.raises(ValueError):
        MinHashLSH(threshold=1.5)
    with pytest.raises(TypeError, match="bytes or str"):
        m64.update(3)


def test_merge_copy_bytes_pickle():
    a, b = MinHash(seed=3), MinHash(seed=3)
    a.update_batch([b"1", b"2", b"3"])
    b.update_batch([b"3", b"4"])
    union = MinHash(seed=3)
    union.update_batch([b"1", b"2", b"3", b"4"])
    c = a.copy()
    c.merge(b)
    assert c == union and c.digest() == union.digest()
    assert a != c, "copy is independent"
    assert MinHash.from_bytes(c.to_bytes()) == c
    assert pickle.loads(pickle.dumps(c)) == c
    assert MinHash().is_empty() and not a.is_empty() and len(a) == 128
    assert neardup.compare("one two three four five", "one two three four six")["score"] > 0
    with pytest.raises(ValueError):
        neardup.compare("", "x")


def test_compare_min_words_drops_short_passages():
    # a: an 8-word copied run and a 3-word stock phrase; 15 word 3-shingles,
    # 6 of them in the long run, 1 in the stock phrase (counted by hand).
    a = "alpha beta gamma delta epsilon zeta eta theta and then in the end we went home quietly"
    b = "in the end; alpha beta gamma delta epsilon zeta eta theta, said nobody else"
    full = neardup.compare(a, b)
    long = neardup.compare(a, b, min_words=4)
    assert len(full["passages"]) == 2 and len(long["passages"]) == 1
    assert full["score"] == 7 / 15 and long["score"] == 6 / 15
    with pytest.raises(ValueError, match="min_words"):
        neardup.compare(a, b, min_words=5000)
