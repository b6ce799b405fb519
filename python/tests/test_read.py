"""``neardup.read_files``: the core's reader from Python, the same as the
CLI's and the page's — formats by the bytes, hidden text left out and
counted, archives entry by entry, bad bytes named, never raised. The
documents are written here by the standard library's zipfile, their
visible text written out by hand."""

import hashlib
import io
import zipfile
from pathlib import Path

import pytest

import neardup

W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def zip_of(entries):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries:
            z.writestr(name, data)
    return out.getvalue()


def docx(paragraphs):
    body = "".join(f"<w:p>{p}</w:p>" for p in paragraphs)
    return zip_of([("word/document.xml", f"<w:document {W}><w:body>{body}</w:body></w:document>")])


def test_a_docx_with_hidden_padding_reads_as_what_is_seen():
    seen = '<w:r><w:t xml:space="preserve">The copied sentence. </w:t></w:r>'
    vanished = "<w:r><w:rPr><w:vanish/></w:rPr><w:t>padding no one sees</w:t></w:r>"
    white = '<w:r><w:rPr><w:color w:val="FFFFFF"/></w:rPr><w:t>white padding</w:t></w:r>'
    data = docx([seen + vanished, white + seen])
    out = neardup.read_files("class/anna.docx", data)
    assert out["failed"] == []
    [t] = out["texts"]
    assert t["path"] == "class/anna.docx"
    assert t["format"] == "docx"
    assert t["text"] == "The copied sentence. \nThe copied sentence. "
    assert (t["hidden_runs"], t["hidden_bytes"]) == (2, len("padding no one sees") + len("white padding"))
    assert t["sha256"] == hashlib.sha256(data).hexdigest()
    assert out["text_bytes"] == len(t["text"].encode())


def test_an_archive_is_read_entry_by_entry_and_bad_files_are_named():
    data = zip_of(
        [
            ("a/essay.txt", "Ann's essay."),
            ("b/essay.pdf", b"%PDF-1.4 ..."),
            ("c/photo.jpg", b"\xff\xd8\xff\xe0\x00\x10JFIF\x00"),
            ("../d.txt", "Dan's essay."),
        ]
    )
    out = neardup.read_files("class/all.zip", data)
    assert [t["path"] for t in out["texts"]] == ["class/a/essay.txt", "class/d.txt"]
    reasons = dict(out["failed"])
    assert "read by the page only" in reasons["class/b/essay.pdf"]
    assert reasons["class/c/photo.jpg"] == "not a text, .docx, .odt or PDF file (binary data)"


def test_the_class_budget_and_wrong_types():
    out = neardup.read_files("a.txt", b"one two three", max_text=5)
    assert out["texts"] == [] and "class set's limit" in out["failed"][0][1]
    with pytest.raises(TypeError):
        neardup.read_files("a.txt", "not bytes")  # type: ignore[arg-type]


OVERLAPPING = Path(__file__).resolve().parents[2] / "tests" / "data" / "overlapping.zip"


@pytest.mark.parametrize("name", ["class/bomb.zip", "class/essay.docx", "class/essay.odt"])
def test_an_archive_whose_entries_overlap_is_refused(name):
    """Issue 51 item 1: the overlapping-entry zip (1,000 entries on one 4 MiB
    record, ``tests/data/make_overlapping_zip.py``) is refused as such, not
    inflated entry by entry, whatever its name says."""
    out = neardup.read_files(name, OVERLAPPING.read_bytes())
    assert out["texts"] == []
    [(path, reason)] = out["failed"]
    assert path == name
    assert "overlap" in reason and "zip bomb" in reason


def test_a_class_with_an_overlapping_zip_skips_it_and_pairs_the_rest(tmp_path):
    essay = " ".join(f"word{i}" for i in range(200))
    (tmp_path / "ann.txt").write_text(essay)
    (tmp_path / "bob.txt").write_text(essay + " and one more line of my own")
    (tmp_path / "carl.zip").write_bytes(OVERLAPPING.read_bytes())
    report = neardup.class_set([tmp_path])
    assert sorted(report.students) == ["ann", "bob"]
    assert any("carl.zip" in path and "overlap" in reason for path, reason in report.skipped)
    assert len(report.pairs) == 1
