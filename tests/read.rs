//! The core's reader (`neardup::read`): formats decided by the bytes,
//! hidden text left out and counted, archives bounded (overlapping
//! entries, nested archives, entry names that climb out), with documents
//! written here by the `zip` crate's writer as Word and LibreOffice write
//! them. The expectations are the documents' own visible text, written out
//! by hand below, never the reader's output.

use neardup::read::{read_file, read_files, Format, ReadErrorKind, READING_LIMITS};
use std::io::Write as _;
use zip::write::SimpleFileOptions;

fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes) in entries {
        w.start_file(
            *name,
            SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated),
        )
        .unwrap();
        w.write_all(bytes).unwrap();
    }
    w.finish().unwrap().into_inner()
}

const W: &str = r#"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main""#;

fn docx(body: &str, styles: Option<&str>) -> Vec<u8> {
    let document = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><w:document {W}><w:body>{body}</w:body></w:document>"#
    );
    let mut entries: Vec<(&str, &[u8])> = vec![("word/document.xml", document.as_bytes())];
    let styles = styles.map(|s| format!(r#"<?xml version="1.0"?><w:styles {W}>{s}</w:styles>"#));
    if let Some(s) = &styles {
        entries.push(("word/styles.xml", s.as_bytes()));
    }
    zip_of(&entries)
}

fn run(props: &str, text: &str) -> String {
    format!(r#"<w:r><w:rPr>{props}</w:rPr><w:t xml:space="preserve">{text}</w:t></w:r>"#)
}

#[test]
fn docx_hidden_runs_are_left_out_and_counted() {
    let padding = "padding words no one is meant to read";
    let body = format!(
        "<w:p>{}{}{}</w:p><w:p>{}</w:p><w:p>{}</w:p><w:p>{}{}</w:p><w:p>{}</w:p>",
        run("", "The copied sentence "),
        run("<w:vanish/>", padding),
        run("", "continues here."),
        run(r#"<w:color w:val="FFFFFF"/>"#, padding),
        run(r#"<w:sz w:val="4"/>"#, padding),
        // Visible: vanish switched off, a light grey that is still read,
        // white on a black highlight, a 6 pt footnote-sized run.
        run(
            r#"<w:vanish w:val="0"/><w:color w:val="BBBBBB"/>"#,
            "Grey but seen. "
        ),
        run(
            r#"<w:color w:val="FFFFFF"/><w:highlight w:val="black"/>"#,
            "White on black."
        ),
        run(r#"<w:sz w:val="12"/>"#, "Small print."),
    );
    let read = read_file("essay.docx", &docx(&body, None), u64::MAX).unwrap();
    assert_eq!(read.format, Format::Docx);
    assert_eq!(
        read.text,
        "The copied sentence continues here.\n\n\nGrey but seen. White on black.\nSmall print."
    );
    assert_eq!(read.hidden.runs, 3);
    assert_eq!(read.hidden.bytes, 3 * padding.len() as u64);
}

#[test]
fn docx_styles_hide_through_based_on_and_page_colour_counts() {
    let styles = r#"<w:style w:type="character" w:styleId="Ghost"><w:rPr><w:vanish/></w:rPr></w:style>
        <w:style w:type="character" w:styleId="Ghostlier"><w:basedOn w:val="Ghost"/></w:style>
        <w:style w:type="paragraph" w:styleId="Tiny"><w:rPr><w:sz w:val="2"/></w:rPr></w:style>"#;
    let body = format!(
        r#"<w:p>{}<w:r><w:rPr><w:rStyle w:val="Ghostlier"/></w:rPr><w:t>hidden by style</w:t></w:r></w:p>
        <w:p><w:pPr><w:pStyle w:val="Tiny"/><w:rPr><w:vanish/></w:rPr></w:pPr>{}</w:p>
        <w:p><w:pPr><w:rPr><w:vanish/></w:rPr></w:pPr>{}</w:p>"#,
        run("", "Seen."),
        run("", "tiny paragraph"),
        // A paragraph mark's vanish hides the mark, not the text.
        run("", "Seen too."),
    );
    let read = read_file("a.docx", &docx(&body, Some(styles)), u64::MAX).unwrap();
    assert_eq!(read.text, "Seen.\n\nSeen too.");
    assert_eq!((read.hidden.runs, read.hidden.bytes), (2, 29));

    // Black text on a black page is hidden; white text on it is read.
    let body = format!(
        r#"<w:background w:color="000000"/><w:p>{}{}</w:p>"#,
        run(r#"<w:color w:val="000000"/>"#, "dark "),
        run(r#"<w:color w:val="FFFFFF"/>"#, "Light."),
    );
    let doc = format!(r#"<w:document {W}>{body}</w:document>"#);
    let read = read_file(
        "b.docx",
        &zip_of(&[("word/document.xml", doc.as_bytes())]),
        u64::MAX,
    )
    .unwrap();
    assert_eq!(read.text, "Light.");
    assert_eq!(read.hidden.runs, 1);
}

#[test]
fn docx_tab_stops_deletions_and_fields_are_not_text() {
    let body = r#"<w:p><w:pPr><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs></w:pPr>
        <w:r><w:t>One</w:t><w:tab/><w:t>two</w:t><w:br/><w:t>three</w:t></w:r>
        <w:del><w:r><w:delText>struck out</w:delText></w:r></w:del>
        <w:r><w:instrText> PAGE </w:instrText></w:r></w:p>"#;
    let read = read_file("c.docx", &docx(body, None), u64::MAX).unwrap();
    assert_eq!(read.text, "One\ttwo\nthree");
    assert_eq!(read.hidden.runs, 0);
}

const ODF: &str = r#"xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0""#;

fn odt(automatic: &str, body: &str, styles: &str) -> Vec<u8> {
    let content = format!(
        r#"<office:document-content {ODF}><office:automatic-styles>{automatic}</office:automatic-styles><office:body><office:text>{body}</office:text></office:body></office:document-content>"#
    );
    let styles = format!(
        r#"<office:document-styles {ODF}><office:styles>{styles}</office:styles></office:document-styles>"#
    );
    zip_of(&[
        ("mimetype", b"application/vnd.oasis.opendocument.text"),
        ("content.xml", content.as_bytes()),
        ("styles.xml", styles.as_bytes()),
    ])
}

#[test]
fn odt_hidden_styles_sections_paragraphs_and_fields_are_left_out() {
    let automatic = r##"<style:style style:name="T1" style:family="text"><style:text-properties fo:color="#ffffff"/></style:style>
        <style:style style:name="T2" style:family="text" style:parent-style-name="Gone"/>
        <style:style style:name="T3" style:family="text"><style:text-properties fo:font-size="1pt"/></style:style>"##;
    let styles = r#"<style:style style:name="Gone" style:family="text"><style:text-properties text:display="none"/></style:style>"#;
    let body = r#"<text:p>Seen <text:span text:style-name="T1">white words</text:span>and <text:span text:style-name="T2">gone words</text:span>read.</text:p>
        <text:p><text:hidden-paragraph text:condition="ooow:true" text:is-hidden="true"/>A whole hidden paragraph.</text:p>
        <text:section text:name="S" text:display="none"><text:p>A hidden section.</text:p></text:section>
        <text:p>Field: <text:hidden-text text:condition="ooow:1" text:string-value="secret" text:is-hidden="true">secret</text:hidden-text>end<text:s text:c="2"/><text:span text:style-name="T3">tiny</text:span>.</text:p>"#;
    let read = read_file("e.odt", &odt(automatic, body, styles), u64::MAX).unwrap();
    assert_eq!(read.format, Format::Odt);
    assert_eq!(read.text, "Seen and read.\n\n\nField: end  .");
    // white words, gone words, the paragraph, the section, secret, tiny.
    assert_eq!(read.hidden.runs, 6);
}

#[test]
fn html_hidden_elements_end_where_the_parser_closes_them() {
    let page = r#"<!doctype html><body><p>First.</p><div style="display: none !important">pad <b>pad</b> pad</div>
        <p hidden>unclosed hidden paragraph<p>Second, after it.</p>
        <p style="font-size:1px">tiny</p><span style="visibility:hidden">ghost</span>
        <ul><li style="opacity:0">zero<li>Third.</ul><p style="color:grey">Fourth.</p>"#;
    let read = read_file("page.html", page.as_bytes(), u64::MAX).unwrap();
    assert_eq!(read.format, Format::Html);
    assert_eq!(
        read.text,
        "First.\n\nSecond, after it.\n\nThird.\n\nFourth."
    );
    assert_eq!(read.hidden.runs, 5);
}

#[test]
fn the_format_is_decided_by_the_bytes() {
    // A .txt that is a .docx, a .docx that is text, a .txt that is HTML, a
    // PDF by any name, a legacy .doc, binary data, a .markdown.
    let d = docx(&format!("<w:p>{}</w:p>", run("", "Word text.")), None);
    assert_eq!(
        read_file("a.txt", &d, u64::MAX).unwrap().format,
        Format::Docx
    );
    let t = read_file("a.docx", b"Plain words.", u64::MAX).unwrap();
    assert_eq!((t.format, t.encoding), (Format::Text, Some("UTF-8")));
    assert_eq!(
        read_file("a.txt", b"<html><p>Hi</p>", u64::MAX)
            .unwrap()
            .format,
        Format::Html
    );
    assert_eq!(
        read_file("a.markdown", b"# Title", u64::MAX)
            .unwrap()
            .format,
        Format::Markdown
    );
    let kind = |name: &str, bytes: &[u8]| read_file(name, bytes, u64::MAX).unwrap_err().kind();
    assert_eq!(kind("a.txt", b"%PDF-1.7 ..."), ReadErrorKind::Pdf);
    assert_eq!(
        kind("a.doc", &[0xD0, 0xCF, 0x11, 0xE0, 0, 0]),
        ReadErrorKind::Unsupported
    );
    assert_eq!(
        kind("a.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"),
        ReadErrorKind::Unsupported
    );
    assert_eq!(kind("empty.txt", b""), ReadErrorKind::NoText);
    assert_eq!(kind("dots.txt", b" ... -- "), ReadErrorKind::NoText);
    let plain_zip = zip_of(&[("a.txt", b"words")]);
    assert_eq!(kind("a.zip", &plain_zip), ReadErrorKind::Unsupported);
    assert_eq!(kind("cut.docx", &d[..d.len() / 2]), ReadErrorKind::Damaged);
    let dtd = zip_of(&[(
        "word/document.xml",
        br#"<?xml version="1.0"?><!DOCTYPE w [<!ENTITY a "aaaa">]><w:document/>"#,
    )]);
    assert_eq!(kind("bomb.docx", &dtd), ReadErrorKind::Refused);
    // Over a text limit given by the caller.
    let e = read_file("a.txt", b"one two three", 5).unwrap_err();
    assert_eq!(e.kind(), ReadErrorKind::TooLarge);
    assert!(e.reason().contains("left of the class set's limit"), "{e}");
}

#[test]
fn archives_keep_paths_inside_drop_names_that_climb_and_read_one_level_down() {
    let inner = zip_of(&[
        ("deep/c.txt", b"Carol's essay."),
        ("deeper.zip", &zip_of(&[("d.txt", b"Dan")])),
    ]);
    let d = docx(&format!("<w:p>{}</w:p>", run("", "Bea's essay.")), None);
    let outer = zip_of(&[
        ("a.txt", b"Ann's essay."),
        ("../../etc/b.docx", &d),
        ("sub/inner.zip", &inner),
        (".hidden.txt", b"not a student"),
        ("__MACOSX/._a.txt", b"resource fork"),
        ("empty.txt", b""),
    ]);
    let out = read_files("class/period1/all.zip", &outer, u64::MAX);
    let paths: Vec<&str> = out.texts.iter().map(|t| t.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "class/period1/a.txt",
            "class/period1/etc/b.docx",
            "class/period1/sub/deep/c.txt"
        ]
    );
    let failed: Vec<(&str, &str)> = out
        .failed
        .iter()
        .map(|f| (f.path.as_str(), f.reason.as_str()))
        .collect();
    assert_eq!(
        failed,
        [
            (
                "class/period1/sub/deeper.zip",
                "an archive inside 2 archives is not read"
            ),
            ("class/period1/empty.txt", "it holds no words"),
        ]
    );
    assert_eq!(
        out.text_bytes,
        out.texts.iter().map(|t| t.text.len() as u64).sum::<u64>()
    );
    // The hash is of the entry's bytes.
    use sha2::Digest as _;
    let want: String = sha2::Sha256::digest(b"Ann's essay.")
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(out.texts[0].sha256, want);
}

/// A zip whose central directory lists `n` entries that all point at one
/// local record (the overlapping-entry bomb, Fifield 2019), written by
/// hand from PKWARE's APPNOTE 4.3.7 and 4.3.12.
fn overlapping(n: usize, data: &[u8]) -> Vec<u8> {
    let crc = crc32fast::hash(data);
    let mut out = Vec::new();
    let name = b"a.txt";
    // Local file header, stored.
    out.extend_from_slice(b"PK\x03\x04");
    out.extend_from_slice(&[20, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    out.extend_from_slice(&crc.to_le_bytes());
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out.extend_from_slice(&(name.len() as u16).to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(name);
    out.extend_from_slice(data);
    let directory = out.len() as u32;
    for i in 0..n {
        let name = format!("{i:05}.txt");
        out.extend_from_slice(b"PK\x01\x02");
        out.extend_from_slice(&[20, 0, 20, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        out.extend_from_slice(&crc.to_le_bytes());
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
        out.extend_from_slice(&(name.len() as u16).to_le_bytes());
        out.extend_from_slice(&[0; 12]);
        out.extend_from_slice(&0u32.to_le_bytes()); // every entry at offset 0
        out.extend_from_slice(name.as_bytes());
    }
    let size = out.len() as u32 - directory;
    out.extend_from_slice(b"PK\x05\x06\0\0\0\0");
    out.extend_from_slice(&(n as u16).to_le_bytes());
    out.extend_from_slice(&(n as u16).to_le_bytes());
    out.extend_from_slice(&size.to_le_bytes());
    out.extend_from_slice(&directory.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out
}

#[test]
fn overlapping_entries_are_refused_before_any_is_inflated() {
    // One entry is an honest archive; 1,000 entries on one record are not.
    let one = read_files("one.zip", &overlapping(1, b"An essay."), u64::MAX);
    assert_eq!(one.texts.len(), 1);
    let start = std::time::Instant::now();
    let many = read_files(
        "bomb.zip",
        &overlapping(1000, &vec![b'a'; 1 << 20]),
        u64::MAX,
    );
    assert!(many.texts.is_empty());
    assert_eq!(many.failed.len(), 1, "{:?}", many.failed);
    assert!(
        many.failed[0].reason.contains("overlap"),
        "{:?}",
        many.failed
    );
    // Not a timing assertion: a record of what it cost, should it regress.
    eprintln!("1,000 overlapping entries refused in {:?}", start.elapsed());
}

#[test]
fn every_inflated_byte_is_charged_and_entries_are_bounded() {
    // Entries that say they are over the per-file limit are refused
    // unread; entries under it are inflated and charged, and the budget
    // ends the reading with a reason, the files before it read.
    let big = vec![b'a'; (READING_LIMITS.file_bytes + 1) as usize];
    let fits = vec![b'b'; (READING_LIMITS.file_bytes - 1024) as usize];
    let names: Vec<String> = (0..12).map(|i| format!("{i:02}.txt")).collect();
    let mut listed: Vec<(&str, &[u8])> =
        vec![("00-first.txt", b"First essay."), ("00-big.txt", &big)];
    listed.extend(names.iter().map(|n| (n.as_str(), fits.as_slice())));
    let bytes = zip_of(&listed);
    assert!(bytes.len() < READING_LIMITS.file_bytes as usize);
    let out = read_files("big.zip", &bytes, u64::MAX);
    assert_eq!(out.texts.len(), 1, "{:?}", out.failed);
    assert_eq!(
        out.failed[0].reason,
        format!("{} bytes, over the 50 MiB limit", big.len())
    );
    // Ten entries of 50 MiB less 1 KiB, each inflated and refused for its
    // text, are charged: the eleventh passes 500 MiB and ends the reading.
    for f in &out.failed[1..11] {
        assert_eq!(f.reason, "its text is over the 16 MiB limit of one text");
    }
    assert!(
        out.failed[11].reason.contains("500 MiB in all"),
        "{:?}",
        out.failed[11]
    );
    let last = out.failed.last().unwrap();
    assert_eq!(last.path, "big.zip");
    assert!(
        last.reason
            .ends_with("over the limit; the files before it were read"),
        "{last:?}"
    );
    assert_eq!(out.failed.len(), 13);
    // More entries than listed limit: refused whole, nothing inflated.
    let names: Vec<String> = (0..=READING_LIMITS.archive_files)
        .map(|i| format!("{i}.txt"))
        .collect();
    let many: Vec<(&str, &[u8])> = names
        .iter()
        .map(|n| (n.as_str(), b"x".as_slice()))
        .collect();
    let out = read_files("many.zip", &zip_of(&many), u64::MAX);
    assert!(
        out.texts.is_empty() && out.failed[0].reason.contains("more than 5000"),
        "{:?}",
        out.failed
    );
}

#[test]
fn pdfs_are_handed_back_and_the_class_budget_is_kept() {
    let pdf = b"%PDF-1.4 not really".to_vec();
    let out = read_files(
        "x/a.zip",
        &zip_of(&[("p.pdf", &pdf), ("t.txt", b"one two")]),
        4,
    );
    assert_eq!(out.pdfs.len(), 1);
    assert_eq!(
        (out.pdfs[0].path.as_str(), &out.pdfs[0].bytes),
        ("x/p.pdf", &pdf)
    );
    assert!(out.texts.is_empty());
    assert!(out.failed[0].reason.contains("class set's limit"));
}
