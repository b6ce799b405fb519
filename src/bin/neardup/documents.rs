//! A class's documents read as the page's reader reads them (`www/read/`),
//! within the same limits, counted on the bytes produced, never on what a
//! file declares: `.txt` and `.md` decoded by the core; `.docx` and `.odt`
//! as the text of their XML (ECMA-376 WordprocessingML, OASIS OpenDocument
//! 1.3), parsed as a stream by quick-xml, a DTD refused; `.zip` archives
//! entry by entry (the zip crate). `.html` and `.pdf` are read by the page
//! only: refused here with that reason.

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
        "html" | "htm" | "pdf" => Kind::PageOnly,
        _ => Kind::Other,
    }
}

/// The text of one document's bytes (not an archive), named `name` in
/// errors.
pub fn text_of(name: &str, bytes: &[u8]) -> Result<String> {
    let text = match kind_of(name) {
        Kind::Text => crate::input::decode(bytes).0,
        Kind::Docx => xml_text(&member(bytes, "word/document.xml")?, Xml::Docx)?,
        Kind::Odt => xml_text(&member(bytes, "content.xml")?, Xml::Odt)?,
        Kind::PageOnly => {
            bail!("HTML and PDF are read by the page only; give the CLI its text (.txt)")
        }
        Kind::Zip | Kind::Other => {
            bail!("not a document neardup reads (.txt, .md, .docx, .odt, or a .zip of them)")
        }
    };
    if text.len() > MAX_TEXT_BYTES {
        bail!("its text is over {} MiB", MAX_TEXT_BYTES >> 20);
    }
    Ok(text)
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
