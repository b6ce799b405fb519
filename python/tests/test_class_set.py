"""neardup.class_set (issue 48 items 2, 3 and 5): a class run from files by
the core, the CLI's CSV and JSON byte for byte, each listed pair's
containments its full comparison's, library matches as rows, sections said,
bad input named."""

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import neardup

REPO = Path(__file__).resolve().parents[2]
DATA = Path(os.environ.get("NEARDUP_DATA", REPO.parent / "shared" / "data"))
TEXTS = DATA / "clough-abc" / "texts"


def cli():
    found = next(
        (p for p in (REPO / "target" / "debug" / "neardup", REPO / "target" / "release" / "neardup") if p.exists()),
        None,
    )
    assert found, "the neardup CLI is built (cargo test --features cli builds it)"
    return found


@pytest.fixture
def taskb(tmp_path):
    """clough-abc's task b: 19 graded answers and the source, a file each."""
    folder = tmp_path / "taskb"
    folder.mkdir()
    for f in sorted(TEXTS.glob("*taskb*.txt")):
        shutil.copy(f, folder / f.name)
    return folder


def test_the_csv_and_json_are_the_clis_byte_for_byte(taskb):
    run = neardup.class_set([taskb])
    assert len(run.students) == 20 and run.sources == [] and run.skipped == []
    csv = subprocess.run([cli(), "class", taskb, "--csv"], capture_output=True, check=True).stdout.decode()
    assert run.to_csv() == csv
    assert csv.startswith("a,b,kind,containment_ab,containment_ba,similarity,verdict,review,obfuscation_a,obfuscation_b\n")
    out = subprocess.run([cli(), "class", taskb, "--json"], capture_output=True, check=True).stdout.decode()
    assert run.to_json() + "\n" == out
    # The near copy of the source is at the top, graded a near copy.
    top = run.pairs[0]
    assert {run.students[top["a"]], run.students[top["b"]]} == {"g0pA_taskb", "orig_taskb"}
    assert top["verdict"] == "cut" and top["compared"]


def test_each_listed_pairs_containments_are_its_full_comparisons(taskb):
    # Quotations counted, as compare counts them.
    run = neardup.class_set([taskb], ignore_quotes=False, ignore_references=False)
    texts = {n: (taskb / f"{n}.txt").read_text(encoding="utf-8", errors="replace") for n in run.students}
    report = run.report
    checked = 0
    for row in run.pairs:
        a, b = run.students[row["a"]], run.students[row["b"]]
        if report["texts"][row["a"]]["excluded"] or report["texts"][row["b"]]["excluded"]:
            continue
        m = neardup.compare(texts[a], texts[b])
        assert abs(row["containmentAb"] - m["containment"]) <= 0.01, (a, b)
        assert abs(row["containmentBa"] - m["containmentBInA"]) <= 0.01, (a, b)
        checked += 1
    assert checked >= 5


def test_sections_are_said_and_each_file_keeps_them_apart(tmp_path):
    answers = sorted(TEXTS.glob("*taska*.txt"))[:5]
    for i, f in enumerate(answers):
        section = tmp_path / "class" / ("period1" if i < 3 else "period2")
        section.mkdir(parents=True, exist_ok=True)
        shutil.copy(f, section / f.name)
    joined = neardup.class_set([tmp_path / "class"])
    assert joined.students == ["period1", "period2"]
    assert len(joined.notes) == 1 and "5 files" in joined.notes[0] and "2 students" in joined.notes[0], joined.notes
    apart = neardup.class_set([tmp_path / "class"], each_file=True)
    assert len(apart.students) == 5 and apart.notes == []


def test_library_matches_are_rows_of_their_own(tmp_path, taskb):
    lib = neardup.ClassLibrary()
    orig = (taskb / "orig_taskb.txt").read_text(encoding="utf-8", errors="replace")
    lib.add(["wikipedia"], [orig])
    (tmp_path / "lib.ndl").write_bytes(lib.to_bytes())
    (taskb / "orig_taskb.txt").unlink()
    run = neardup.class_set([taskb], library=tmp_path / "lib.ndl")
    library = [r for r in run.pairs if r["kind"] == "library"]
    assert library and all(r["b"] == 0 for r in library)
    assert any(run.students[r["a"]] == "g0pA_taskb" for r in library)
    rows = [line for line in run.to_csv().splitlines() if ",library," in line]
    assert len(rows) == len(library) and all(",library: wikipedia,library," in r for r in rows)
    html = run.evidence_pack(made="Made in a test.")
    assert "Reference library matches" in html and "Made in a test." in html
    # Every file's SHA-256, computed here.
    for f in sorted(taskb.iterdir())[:3]:
        assert hashlib.sha256(f.read_bytes()).hexdigest() in html


def test_a_library_that_keeps_its_texts_gives_rows_compared_in_full(tmp_path, taskb):
    """Issue 48 item 4: with the source's text kept, each library row is the
    full comparison (compare's containments, a graded verdict, passages), the
    CLI's CSV byte for byte, and the pack shows the kept text."""
    orig = (taskb / "orig_taskb.txt").read_text(encoding="utf-8", errors="replace")
    lib = neardup.ClassLibrary()
    lib.keep_texts(True)
    lib.add(["wikipedia"], [orig])
    assert lib.text(0) == orig and lib.text(1) is None
    back = neardup.ClassLibrary.from_bytes(lib.to_bytes())
    assert back.text(0) == orig
    (tmp_path / "kept.ndl").write_bytes(lib.to_bytes())
    (taskb / "orig_taskb.txt").unlink()
    run = neardup.class_set([taskb], library=tmp_path / "kept.ndl", ignore_quotes=False, ignore_references=False)
    library = [r for r in run.pairs if r["kind"] == "library"]
    assert library and all(r["compared"] for r in library)
    for r in library:
        text = (taskb / f"{run.students[r['a']]}.txt").read_text(encoding="utf-8", errors="replace")
        m = neardup.compare(text, orig)
        assert abs(r["containmentAb"] - m["containment"]) <= 0.01
        assert abs(r["containmentBa"] - m["containmentBInA"]) <= 0.01
        assert r["verdict"] in ("cut", "light", "heavy", "non")
    near = next(r for r in library if run.students[r["a"]] == "g0pA_taskb")
    assert near["verdict"] == "cut" and near["passages"]
    csv = subprocess.run(
        [cli(), "class", taskb, "--library", tmp_path / "kept.ndl", "--keep-quotes", "--keep-references", "--csv"],
        capture_output=True,
        check=True,
    ).stdout.decode()
    assert run.to_csv() == csv
    html = run.evidence_pack(made="Made in a test.")
    assert "Library match 1:" in html and orig.split(".")[0][:40] in html


def test_bad_input_is_named(tmp_path, taskb):
    (taskb / "photo.txt").write_bytes(b"\xff\xd8\xff\xe0" + bytes(range(256)) * 8)
    run = neardup.class_set([taskb])
    assert [p for p, _ in run.skipped] == ["taskb/photo.txt"]
    # A path that is not there is skipped and named, as by the CLI.
    run = neardup.class_set([taskb, tmp_path / "missing.txt"])
    assert (str(tmp_path / "missing.txt"), "No such file or directory (os error 2)") in run.skipped
    with pytest.raises(OSError, match="template"):
        neardup.class_set([taskb], template=tmp_path)
    (tmp_path / "bad.ndl").write_bytes(b"not a library")
    with pytest.raises(neardup.Error):
        neardup.class_set([taskb], library=tmp_path / "bad.ndl")
    with pytest.raises(OSError, match="library"):
        neardup.class_set([taskb], library=tmp_path)
    with pytest.raises(neardup.ConfigError, match="stock_share"):
        neardup.class_set([taskb], stock_share=2.0)
    one = tmp_path / "one"
    one.mkdir()
    shutil.copy(TEXTS / "g0pA_taska.txt", one)
    with pytest.raises(ValueError, match="two texts"):
        neardup.class_set([one])
    with pytest.raises(TypeError):
        neardup.class_set([taskb], each_file="yes")


def test_a_ring_of_10000_identical_essays_is_one_group():
    """Issue 51 item 2: 10,000 identical essays (25 minutes and 2.3 GB
    unfinished before) are one group found by hash, one pair standing for
    it; a copy revised by one word pairs with the group's first only."""
    essay = (TEXTS / "g0pA_taskb.txt").read_text(encoding="utf-8", errors="replace")
    revised = essay.replace("PageRank", "the ranking", 1)
    r = neardup.class_pairs([essay] * 10_000 + [revised])
    assert r["groups"] == [list(range(10_000))]
    assert [(p["a"], p["b"], p["identical"]) for p in r["pairs"] if p.get("identical")] == [(0, 1, 10_000)]
    assert [p["a"] for p in r["pairs"] if p["b"] == 10_000] == [0]
    assert all(s["covered"] == 1.0 for s in r["students"][:10_000])
