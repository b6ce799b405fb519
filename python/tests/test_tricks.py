"""Issue 47 from Python: the tricks that hide a copy (Cyrillic look-alike
letters, zero-width spaces, soft hyphens, Greek omicron with joiners) are
undone by default in ``compare``, ``class_pairs`` and ``dedup``, and said;
texts written in Russian or Greek report nothing; ``unmask=False`` keeps
the text as it is."""

import csv
import os
from pathlib import Path

import pytest

import neardup

REPO = Path(__file__).resolve().parents[2]
DATA = Path(os.environ.get("NEARDUP_DATA", REPO.parent / "shared" / "data"))
CLOUGH = DATA / "clough-abc"

CYRILLIC = str.maketrans("aeocpxyi", "аеосрхуі")


def every_nth(text, n, mark):
    out, run = [], 0
    for i, c in enumerate(text):
        out.append(c)
        run = run + 1 if c.isalpha() else 0
        if run and run % n == 0 and i + 1 < len(text) and text[i + 1].isalpha():
            out.append(mark)
    return "".join(out)


TRICKS = {
    "cyrillic": lambda t: t.translate(CYRILLIC),
    "zwsp": lambda t: every_nth(t, 2, "\u200b"),
    "soft-hyphen": lambda t: every_nth(t, 3, "\u00ad"),
    "omicron-zwj": lambda t: t.replace("o", "\u200dο\u200d"),
}


def read(name):
    return neardup.decode_text((CLOUGH / "texts" / name).read_bytes())[0]


def copied_answers():
    with open(CLOUGH / "labels.csv", newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["category"] in ("cut", "light")]
    return [(r["file"], r["source_file"]) for r in rows]


@pytest.mark.parametrize("trick", sorted(TRICKS))
def test_compare_undoes_each_trick_on_the_copied_answers(trick):
    answers = copied_answers()
    assert len(answers) >= 10
    for name, source in answers:
        text, src = read(name), read(source)
        plain = neardup.compare(text, src)
        assert plain["obfuscationA"]["lookalikes"] == plain["obfuscationA"]["invisible"] == 0
        tricked = TRICKS[trick](text)
        r = neardup.compare(tricked, src)
        assert r["score"] >= plain["score"] - 0.02, (name, r["score"], plain["score"])
        o = r["obfuscationA"]
        assert o["lookalikes"] + o["invisible"] > 0, (name, o)
        assert "hide copying" in o["warning"]
        off = neardup.compare(tricked, src, unmask=False)
        assert off["obfuscationA"]["lookalikes"] + off["obfuscationA"]["invisible"] == 0


def test_texts_in_russian_greek_serbian_and_formulas_report_nothing():
    for text in [
        "Наследование — это механизм, позволяющий создавать новые классы на основе уже существующих.",
        "Η κληρονομικότητα είναι ένας μηχανισμός με τον οποίο δημιουργούνται νέες κλάσεις.",
        "Наслеђивање је механизам објектно оријентисаног програмирања којим се нове класе граде.",
        "Nasleđivanje je mehanizam objektno orijentisanog programiranja kojim se nove klase grade.",
        "Let α be the angle and β the slope; the area of a circle is π r².",
    ]:
        r = neardup.compare(text, text)
        assert r["score"] == 1.0
        assert r["obfuscationA"]["lookalikes"] == r["obfuscationA"]["invisible"] == 0
        assert "warning" not in r["obfuscationA"]


def test_class_pairs_and_dedup_pair_a_tricked_copy():
    name, source = copied_answers()[0]
    text, src = read(name), read(source)
    other = read("g0pA_taska.txt") if name != "g0pA_taska.txt" else read("g0pB_taska.txt")
    tricked = TRICKS["cyrillic"](text)
    r = neardup.class_pairs([tricked, other], [src])
    pairs = {(p["a"], p["b"]) for p in r["pairs"] if p["score"] >= r["cutOff"]}
    assert (0, 2) in pairs, r["pairs"]
    assert r["texts"][0]["obfuscation"]["lookalikes"] > 0
    assert r["texts"][1]["obfuscation"]["lookalikes"] == 0
    # dedup: a new configuration unmasks, and records it.
    found = neardup.dedup([src, tricked], threshold=0.3)
    assert found.pairs, "the tricked copy is a near-duplicate of its source"
    off = neardup.dedup([src, tricked], threshold=0.3, unmask=False)
    assert not off.pairs


def test_the_unmask_golden_vectors_hold_in_python_and_sketches_never_mix():
    import json

    golden = json.loads((REPO / "tests" / "golden" / "unmask-v1.json").read_text())
    # The snapshot was written at spec version 1, the default then (now 2: issue 50).
    d = neardup.Deduplicator(spec=1)
    for i, c in enumerate(golden["cases"]):
        d.add(f"t{i}", c["input"])
    assert d.to_bytes().hex() == golden["dedup_snapshot"]
    lib = neardup.ClassLibrary()
    lib.add(["t0", "t1", "t2"], [c["input"] for c in golden["cases"][:3]])
    assert lib.to_bytes().hex() == golden["library"]
    for c in golden["cases"]:
        o = neardup.compare(c["input"], c["input"])["obfuscationA"]
        assert (o["lookalikes"], o["invisible"]) == (c["lookalikes"], c["invisible"]), c["name"]
        assert [[r["start"], r["end"]] for r in o["ranges"]] == c["ranges"], c["name"]
    old = json.loads((REPO / "tests" / "golden" / "dedup-v1.json").read_text())["cases"][0]
    back = neardup.Deduplicator.from_bytes(bytes.fromhex(old["snapshot"]))
    assert back.to_bytes().hex() == old["snapshot"]
    on, off = neardup.Stages(), neardup.Stages(unmask=False)
    with pytest.raises(ValueError, match="incompatible"):
        on.keys(off.sketch(["a copy of a text"])[0])
    with pytest.raises(ValueError, match="incompatible"):
        off.keys(on.sketch(["a copy of a text"])[0])
