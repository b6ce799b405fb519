"""ClassLibrary from Python (issue 38): the golden library the Rust core
wrote reads and writes back byte for byte; a class checked one way; bad
input named."""

import json
import pathlib

import pytest

import neardup

GOLDEN = json.loads(
    (pathlib.Path(__file__).parents[2] / "tests" / "golden" / "library-v1.json").read_text()
)


def test_the_golden_library_is_the_same_bytes_in_python():
    data = bytes.fromhex(GOLDEN["bytes"])
    lib = neardup.ClassLibrary.from_bytes(data)
    assert lib.names == ["source.txt", "2025/ann.txt", "2025/bo – café.txt"]
    assert lib.to_bytes() == data
    # Built here from the same texts: the same bytes and matches.
    texts = [
        "PageRank is a link analysis algorithm used by the Google Internet search engine that assigns a numerical weighting to each element of a hyperlinked set of documents, with the purpose of measuring its relative importance within the set.",
        "Inheritance in object oriented programming lets a class reuse the fields and methods of another class, called its superclass or parent, and extend them with its own.",
        "The vector space model represents documents and queries as vectors of term weights, and ranks documents by the cosine of the angle between their vector and the query's.",
    ]
    # Made before the unmasked normalisation, which it records as off.
    built = neardup.ClassLibrary(unmask=False)
    built.add(lib.names, texts)
    assert built.to_bytes() == data
    # The default now unmasks, and says so in the one flag byte.
    new = neardup.ClassLibrary()
    new.add(lib.names, texts)
    assert len(new.to_bytes()) == len(data) and new.to_bytes() != data
    students = [
        "My answer: PageRank is a link analysis algorithm used by the Google Internet search engine that assigns a numerical weighting to each element of a set of documents.",
        "A class may inherit from another: it gets the parent's methods and can add its own, which is what object oriented languages call inheritance.",
    ]
    # The golden's figures at two shared fingerprints; the default rule (3) lists fewer.
    assert built.check(students, 0.0, min_shared=2) == GOLDEN["matches"]
    assert built.check(students, 0.0) == [m for m in GOLDEN["matches"] if m["shared"] >= 3]
    with pytest.raises(ValueError):
        built.check(students, 0.0, min_shared=0)


def test_a_class_is_checked_one_way_and_bad_input_is_named():
    past = [f"essay {i} " + " ".join(f"w{(i * 7919 + j * 104729) % 5000}" for j in range(300)) for i in range(8)]
    lib = neardup.ClassLibrary()
    lib.add([f"2025/{i}.txt" for i in range(8)] + ["2025/dup.txt"], past + [past[5]])
    assert len(lib) == 9
    found = lib.check([past[5], "an answer of its own about something else entirely, nothing copied"], 0.5)
    assert [(m["student"], lib.names[m["text"]]) for m in found] == [(0, "2025/5.txt"), (0, "2025/dup.txt")]
    assert found[0]["containment"] == 1.0
    with pytest.raises(ValueError, match="checksum"):
        broken = bytearray(lib.to_bytes())
        broken[len(broken) // 2] ^= 0xFF
        neardup.ClassLibrary.from_bytes(bytes(broken))
    with pytest.raises(ValueError, match="1 names for 2 texts"):
        lib.add(["a"], ["x", "y"])
    with pytest.raises(ValueError, match="min_containment"):
        lib.check(["x"], 1.5)
    with pytest.raises(ValueError, match="window"):
        neardup.ClassLibrary(window=0)
    with pytest.raises(TypeError):
        lib.add("a", ["x"])
