//! A class's documents read as the page's reader reads them (`www/read/`),
//! within the same limits, counted on the bytes produced, never on what a
//! file declares: `.txt` and `.md` decoded by the core; `.docx` and `.odt`
//! as the text of their XML (ECMA-376 WordprocessingML, OASIS OpenDocument
//! 1.3), parsed as a stream by quick-xml, a DTD refused; `.zip` archives
//! entry by entry (the zip crate); `.html` (and a text file that begins as
//! an HTML document, as the page sniffs it) as the text of its body, one
//! line per block element, scripts and styles dropped, tokenized by
//! html5gum (WHATWG HTML §13.2.5): nothing runs, nothing loads. `.pdf` is
//! read by the page only (pdf.js): refused here with that reason.

use anyhow::{anyhow, bail, Result};
use quick_xml::events::Event;
use std::io::{Cursor, Read};

/// Largest file read (`MAX_FILE_BYTES` of www/read/budget.js).
pub const MAX_FILE_BYTES: u64 = 50 << 20;
/// Largest XML of a .docx or .odt (`MAX_XML_BYTES`).
pub const MAX_XML_BYTES: u64 = 64 << 20;
/// Largest text of one file (`MAX_TEXT_BYTES`).
pub const MAX_TEXT_BYTES: usize = 16 << 20;
/// Bytes an archive may produce in all (`MAX_ARCHIVE_BYTES`).
pub const MAX_ARCHIVE_BYTES: u64 = 500 << 20;
/// Entries an archive may hold (`MAX_ARCHIVE_FILES`).
pub const MAX_ARCHIVE_FILES: usize = 5000;

/// What a file's name says it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Text,
    Docx,
    Odt,
    Zip,
    Html,
    /// Read by the page only.
    PageOnly,
    Other,
}

/// The kind of a file by its extension (case ignored).
pub fn kind_of(name: &str) -> Kind {
    let ext = name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "txt" | "md" | "text" => Kind::Text,
        "docx" => Kind::Docx,
        "odt" => Kind::Odt,
        "zip" => Kind::Zip,
        "html" | "htm" => Kind::Html,
        "pdf" => Kind::PageOnly,
        _ => Kind::Other,
    }
}

/// The text of one document's bytes (not an archive), named `name` in
/// errors.
pub fn text_of(name: &str, bytes: &[u8]) -> Result<String> {
    let text = match kind_of(name) {
        Kind::Text | Kind::Html => {
            let text = crate::input::decode(bytes).0;
            if kind_of(name) == Kind::Html || looks_like_html(&text) {
                html_text(&text)
            } else {
                text
            }
        }
        Kind::Docx => xml_text(&member(bytes, "word/document.xml")?, Xml::Docx)?,
        Kind::Odt => xml_text(&member(bytes, "content.xml")?, Xml::Odt)?,
        Kind::PageOnly => {
            bail!("PDF is read by the page only (pdf.js); give the CLI its text (.txt)")
        }
        Kind::Zip | Kind::Other => {
            bail!("not a document neardup reads (.txt, .md, .html, .docx, .odt, or a .zip of them)")
        }
    };
    if text.len() > MAX_TEXT_BYTES {
        bail!("its text is over {} MiB", MAX_TEXT_BYTES >> 20);
    }
    Ok(text)
}

/// Whether a text begins as an HTML document (`<!doctype html` or `<html`
/// in its first 1,024 characters, after white space; case ignored), as the
/// page sniffs a text file.
pub fn looks_like_html(text: &str) -> bool {
    let head: String = text
        .trim_start()
        .chars()
        .take(1024)
        .collect::<String>()
        .to_ascii_lowercase();
    ["<!doctype html", "<html"].iter().any(|start| {
        head.strip_prefix(start)
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_whitespace() || c == '>'))
    })
}

/// Elements that end a line in the text of an HTML page (the page's
/// `BLOCK`, www/read/formats.js).
const BLOCK: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "br",
    "dd",
    "div",
    "dl",
    "dt",
    "figcaption",
    "figure",
    "footer",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "li",
    "main",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "table",
    "td",
    "th",
    "tr",
    "ul",
];
/// Elements whose content is not text to compare (the page's `SKIP`, but
/// for its void elements, which hold nothing).
const SKIP: &[&str] = &[
    "script", "style", "noscript", "template", "head", "title", "svg", "math",
];

/// The text of an HTML document's body as the page reads it, one line per
/// block element: each text's white space runs folded to one space, spaces
/// around line breaks dropped, two breaks or more a blank line (a `<br>`
/// or `<hr>` ends its line and the next, as the page's parser closes a
/// void element at once), scripts, styles and the head left out,
/// character references decoded.
pub fn html_text(html: &str) -> String {
    use html5gum::{emitters::default::DefaultEmitter, Token, Tokenizer};
    // Script, style and the like are read as raw text, as a browser does.
    let mut emitter = DefaultEmitter::default();
    emitter.naively_switch_states(true);
    let mut out = String::with_capacity(html.len() / 2);
    let mut skip = 0usize;
    let block = |name: &[u8]| {
        let name = String::from_utf8_lossy(name).to_ascii_lowercase();
        (
            SKIP.contains(&name.as_str()),
            BLOCK.contains(&name.as_str()),
            name,
        )
    };
    for token in Tokenizer::new_with_emitter(html, emitter).flatten() {
        match token {
            Token::StartTag(tag) => match block(&tag.name) {
                (true, _, _) if !tag.self_closing => skip += 1,
                (false, true, name) if skip == 0 => out.push_str(if name == "br" || name == "hr" {
                    "\n\n"
                } else {
                    "\n"
                }),
                _ => {}
            },
            Token::EndTag(tag) => match block(&tag.name) {
                (true, _, _) => skip = skip.saturating_sub(1),
                (false, true, _) if skip == 0 => out.push('\n'),
                _ => {}
            },
            Token::String(text) if skip == 0 => {
                let mut space = false;
                for c in String::from_utf8_lossy(&text).chars() {
                    if c.is_whitespace() {
                        if !space {
                            out.push(' ');
                        }
                        space = true;
                    } else {
                        out.push(c);
                        space = false;
                    }
                }
            }
            _ => {}
        }
    }
    let mut text = String::with_capacity(out.len());
    let mut breaks = 0;
    for line in out.split('\n') {
        let line = line.trim_matches([' ', '\t']);
        if !line.is_empty() {
            if !text.is_empty() {
                text.push_str(if breaks > 1 { "\n\n" } else { "\n" });
            }
            text.push_str(line);
            breaks = 0;
        }
        breaks += 1;
    }
    text.trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_is_read_as_the_page_reads_it() {
        let page = "<!DOCTYPE html><html><head><title>T</title><style>p{x:1}</style></head>\
            <body><h1>Essay</h1><p>One   &amp; two\n  words.</p><script>if (a<b) document.write('no')</script>\
            <div>Three<br>four</div><ul><li>a</li><li>b</li></ul></body></html>";
        // A block's end and the next block's start make a blank line, as in
        // the page (its parser's events, folded by the same rule).
        assert_eq!(
            html_text(page),
            "Essay\n\nOne & two words.\n\nThree\n\nfour\n\na\n\nb"
        );
        assert!(looks_like_html("  <!doctype html>\n<p>x"));
        assert!(looks_like_html("<HTML lang=en>"));
        assert!(!looks_like_html("<htmlx>"));
        assert!(!looks_like_html("an essay about <html>"));
    }
}

/// Reads at most `limit` bytes of `r`; more is an error naming the limit.
fn limited(r: impl Read, limit: u64, what: &str) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    r.take(limit + 1).read_to_end(&mut out)?;
    if out.len() as u64 > limit {
        bail!("{what} is over {} MiB", limit >> 20);
    }
    Ok(out)
}

/// One member of a .docx or .odt (a zip), at most [`MAX_XML_BYTES`].
fn member(bytes: &[u8], path: &str) -> Result<Vec<u8>> {
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| anyhow!("not a valid document ({e})"))?;
    let entry = zip
        .by_name(path)
        .map_err(|_| anyhow!("it has no {path}: not a valid document"))?;
    limited(entry, MAX_XML_BYTES, path)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Xml {
    Docx,
    Odt,
}

/// The text of a WordprocessingML or OpenDocument body: text runs, a line
/// per paragraph (and heading), tabs and line breaks kept. A DTD (and so
/// any entity of its own) is refused.
fn xml_text(xml: &[u8], kind: Xml) -> Result<String> {
    let mut reader = quick_xml::Reader::from_reader(xml);
    let mut out = String::new();
    let mut buf = Vec::new();
    // WordprocessingML: only text inside <w:t>; OpenDocument: all text
    // inside <office:body>.
    let mut inside = 0usize;
    loop {
        let event = reader
            .read_event_into(&mut buf)
            .map_err(|e| anyhow!("its XML is not well formed ({e})"))?;
        match event {
            Event::DocType(_) => {
                bail!("its XML declares a DTD, which a document's XML never needs")
            }
            Event::Start(e) => {
                let name = e.name();
                match (kind, name.into_inner()) {
                    (Xml::Docx, "w:t") | (Xml::Odt, "office:body") => inside += 1,
                    _ => {}
                }
            }
            Event::Empty(e) => match (kind, e.name().into_inner()) {
                (Xml::Docx, "w:tab") | (Xml::Odt, "text:tab") => out.push('\t'),
                (Xml::Docx, "w:br") | (Xml::Odt, "text:line-break") => out.push('\n'),
                (Xml::Odt, "text:s") if inside > 0 => out.push(' '),
                _ => {}
            },
            Event::End(e) => match (kind, e.name().into_inner()) {
                (Xml::Docx, "w:t") | (Xml::Odt, "office:body") => inside = inside.saturating_sub(1),
                (Xml::Docx, "w:p") | (Xml::Odt, "text:p") | (Xml::Odt, "text:h") => out.push('\n'),
                _ => {}
            },
            Event::Text(t) if inside > 0 => {
                out.push_str(&t.xml10_content());
            }
            Event::GeneralRef(r) if inside > 0 => {
                // The five predefined entities and character references.
                let name = r.xml10_content();
                match r.resolve_char_ref().ok().flatten() {
                    Some(c) => out.push(c),
                    None => match quick_xml::escape::resolve_predefined_entity(&name) {
                        Some(s) => out.push_str(s),
                        None => bail!("its XML uses an entity &{name}; it does not define"),
                    },
                }
            }
            Event::Eof => break,
            _ => {}
        }
        if out.len() > MAX_TEXT_BYTES {
            bail!("its text is over {} MiB", MAX_TEXT_BYTES >> 20);
        }
        buf.clear();
    }
    Ok(out)
}

/// The SHA-256 of `bytes`, lower-case hex (the evidence pack's file
/// hashes, as the page's reader takes them).
pub fn sha256(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// What an archive gave: its documents as `(path inside, text, SHA-256 of
/// the entry's bytes)` and the entries that could not be read, with the
/// reason.
#[derive(Default)]
pub struct Archive {
    pub texts: Vec<(String, String, String)>,
    pub failed: Vec<(String, String)>,
}

/// Reads every document of a .zip, in the archive's order; folders and
/// hidden entries are passed over, nested archives refused. Stops at
/// [`MAX_ARCHIVE_FILES`] entries or [`MAX_ARCHIVE_BYTES`] produced.
pub fn read_zip(bytes: &[u8]) -> Result<Archive> {
    let mut zip =
        zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| anyhow!("not a valid .zip ({e})"))?;
    if zip.len() > MAX_ARCHIVE_FILES {
        bail!(
            "it holds {} entries, more than {MAX_ARCHIVE_FILES}",
            zip.len()
        );
    }
    let mut out = Archive::default();
    let mut produced = 0u64;
    for i in 0..zip.len() {
        let entry = zip
            .by_index(i)
            .map_err(|e| anyhow!("entry {i} cannot be read ({e})"))?;
        let name = entry
            .name()
            .map_err(|e| anyhow!("entry {i} has a name that cannot be read ({e})"))?
            .into_owned();
        let last = name.rsplit('/').next().unwrap_or("");
        if entry.is_dir()
            || last.is_empty()
            || last.starts_with('.')
            || name.starts_with("__MACOSX/")
        {
            continue;
        }
        let result = match kind_of(&name) {
            Kind::Zip => Err(anyhow!("an archive inside an archive is not read")),
            Kind::Other => Err(anyhow!(
                "not a document neardup reads (.txt, .md, .docx, .odt)"
            )),
            _ => {
                let left = MAX_ARCHIVE_BYTES - produced;
                let bytes = limited(entry, left.min(MAX_FILE_BYTES), "the entry").map_err(|e| {
                    anyhow!(
                        "{e} (a file at most {} MiB, an archive {} MiB in all)",
                        MAX_FILE_BYTES >> 20,
                        MAX_ARCHIVE_BYTES >> 20
                    )
                });
                match bytes {
                    Ok(bytes) => {
                        produced += bytes.len() as u64;
                        text_of(&name, &bytes).map(|t| (t, sha256(&bytes)))
                    }
                    Err(e) => {
                        out.failed.push((name, e.to_string()));
                        if produced >= MAX_ARCHIVE_BYTES {
                            break;
                        }
                        continue;
                    }
                }
            }
        };
        match result {
            Ok((text, hash)) => out.texts.push((name, text, hash)),
            Err(e) => out.failed.push((name, e.to_string())),
        }
    }
    Ok(out)
}
