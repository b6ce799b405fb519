"""class_pairs, compare and decode_text from Python give the cases of
tests/surfaces.json, the texts and hand-counted expectations the CLI
(tests/cli.rs) and npm (tests/js/surfaces.test.mjs) are held to (issue 34)."""

import json
from pathlib import Path

import pytest

import neardup

REPO = Path(__file__).resolve().parents[2]
FX = json.loads((REPO / "tests" / "surfaces.json").read_text())


@pytest.mark.parametrize("case", FX["class_pairs"], ids=lambda c: c["name"])
def test_class_pairs_gives_the_shared_cases(case):
    r = neardup.class_pairs(
        FX["students"], FX["sources"], FX["template"] if case["template"] else "", **case["options"]
    )
    got = [(p["a"], p["b"], p["source"], p["shared"]) for p in r["pairs"]]
    assert got == [(p["a"], p["b"], p["source"], p["shared"]) for p in case["pairs"]]
    for p, w in zip(r["pairs"], case["pairs"]):
        if "score" in w:
            assert p["score"] == pytest.approx(w["score"], abs=1e-12)
    for w in case["texts"]:
        t = r["texts"][w["i"]]
        assert (t["quotations"], t["referenceList"], t["templateShingles"]) == (
            w["quotations"],
            w["reference_list"],
            w["template_shingles"],
        )
        if "excluded" in w:
            assert [[e["start"], e["end"]] for e in t["excluded"]] == w["excluded"]


@pytest.mark.parametrize("case", FX["compare"], ids=lambda c: c["name"])
def test_compare_gives_the_shared_cases(case):
    r = neardup.compare(FX["students"][case["a"]], FX["students"][case["b"]], **case["options"])
    assert r["score"] == case["score"]
    assert r["sharedShingles"] == case["shared_shingles"]
    got = [[[p["a"]["start"], p["a"]["end"]], [p["b"]["start"], p["b"]["end"]]] for p in r["passages"]]
    assert got == case["passages"]
    assert [[e["start"], e["end"]] for e in r.get("excludedA", [])] == case["excluded_a"]


@pytest.mark.parametrize("case", FX["decode_text"], ids=lambda c: c["hex"] or "empty")
def test_decode_text_gives_the_shared_cases(case):
    assert neardup.decode_text(bytes.fromhex(case["hex"])) == (case["text"], case["encoding"])


def test_class_pairs_refuses_bad_input_by_name():
    with pytest.raises(TypeError):
        neardup.class_pairs("one text")
    with pytest.raises(TypeError):
        neardup.class_pairs(["a b c", 7])
    with pytest.raises(ValueError, match="invalid option students"):
        neardup.class_pairs(["only one text"])
    with pytest.raises(ValueError, match="stock_share"):
        neardup.class_pairs(["a b", "c d"], stock_share=0)
    with pytest.raises(TypeError, match="cut_off"):
        neardup.class_pairs(["a b", "c d"], cut_off=0.5)
    with pytest.raises(ValueError, match="template"):
        neardup.class_pairs(["a b", "c d"], template="x" * 100, max_bytes=10)


def test_fold_diacritics_forgives_accents_in_compare_class_pairs_and_dedup():
    """Issue 39: German typed with ae/oe/ue and Spanish without accents
    (tests/data/accents.json, hand-written) score >= 0.95 with
    fold_diacritics, and far less without it."""
    import json
    from pathlib import Path

    data = json.loads((Path(__file__).parents[2] / "tests" / "data" / "accents.json").read_text("utf-8"))
    for language in ("german", "spanish"):
        original, typed = data[language]["original"], data[language]["typed"]
        assert neardup.compare(typed, original, fold_diacritics=True)["score"] >= 0.95, language
        assert neardup.compare(typed, original)["score"] < 0.9, language
        report = neardup.class_pairs([original, typed], fold_diacritics=True)
        assert min(report["pairs"][0]["containmentAb"], report["pairs"][0]["containmentBa"]) >= 0.95
        assert report["options"]["foldDiacritics"] is True
        found = neardup.dedup([original, typed], shingle="word:3", fold_diacritics=True)
        assert found.summary["pairs"] == 1, language
        assert neardup.dedup([original, typed], shingle="word:3").summary["pairs"] == 0, language
    with pytest.raises(TypeError, match="fold_diacritics"):
        neardup.compare("a b c", "a b c", fold_diacritics="yes")
