//! The text of a `.docx` (ECMA-376 Part 1, WordprocessingML:
//! `word/document.xml` with the styles of `word/styles.xml`) and of an
//! `.odt` (OASIS OpenDocument 1.3: `content.xml` with the styles of
//! `styles.xml`): a line per paragraph (and heading), in the order the
//! paragraphs begin (a paragraph inside another, a text box or a note, is
//! a line of its own); tabs and line breaks kept; deleted text of tracked
//! changes, field instructions and note citations left out; hidden text
//! (module `hidden`) left out and counted.
//!
//! The XML is parsed as a stream by quick-xml, namespaces resolved; a DTD
//! (and so any entity of its own, which could expand without end) is
//! refused, as neither format ever has one.

use super::hidden::{hex_colour, invisible, points, Hidden, Rgb, TINY_POINTS, WHITE};
use super::{over_text, ReadError, ReadErrorKind};
use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use quick_xml::events::{BytesStart, Event};
use quick_xml::name::ResolveResult;

const W: &[&str] = &[
    "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
    "http://purl.oclc.org/ooxml/wordprocessingml/main",
];
const TEXT: &str = "urn:oasis:names:tc:opendocument:xmlns:text:1.0";
const STYLE: &str = "urn:oasis:names:tc:opendocument:xmlns:style:1.0";

/// The character properties that decide whether text is seen; `None`
/// where a level says nothing (the level below decides).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Props {
    vanish: Option<bool>,
    colour: Option<Rgb>,
    points: Option<f64>,
    background: Option<Rgb>,
}

impl Props {
    /// These properties over `base`: each one said here wins.
    fn over(self, base: Props) -> Props {
        Props {
            vanish: self.vanish.or(base.vanish),
            colour: self.colour.or(base.colour),
            points: self.points.or(base.points),
            background: self.background.or(base.background),
        }
    }

    /// Whether text with these properties on a page of colour `page` is
    /// hidden from the eye.
    fn hidden(self, page: Rgb) -> bool {
        self.vanish == Some(true)
            || self.points.is_some_and(|p| p <= TINY_POINTS)
            || self
                .colour
                .is_some_and(|c| invisible(c, self.background.unwrap_or(page)))
    }
}

/// Text gathered into paragraphs, refused past `max` bytes.
struct Lines {
    lines: Vec<String>,
    open: Vec<usize>,
    bytes: u64,
    max: u64,
    hidden: Hidden,
    /// Whether the last text seen was hidden (a run continues).
    in_hidden: bool,
}

impl Lines {
    fn new(max: u64) -> Lines {
        Lines {
            lines: Vec::new(),
            open: Vec::new(),
            bytes: 0,
            max,
            hidden: Hidden::default(),
            in_hidden: false,
        }
    }

    fn begin(&mut self) {
        self.lines.push(String::new());
        self.open.push(self.lines.len() - 1);
        self.in_hidden = false;
    }

    fn end(&mut self) {
        self.open.pop();
        self.in_hidden = false;
    }

    /// Adds text to the open paragraph (none open: not text of the body).
    fn push(&mut self, s: &str, hidden: bool) -> Result<(), ReadError> {
        let Some(&at) = self.open.last() else {
            return Ok(());
        };
        if s.is_empty() {
            return Ok(());
        }
        if hidden {
            self.hidden.add(s, !self.in_hidden);
            self.in_hidden = true;
            return Ok(());
        }
        self.bytes += s.len() as u64;
        if self.bytes > self.max {
            return Err(over_text(self.max));
        }
        self.lines[at].push_str(s);
        self.in_hidden = false;
        Ok(())
    }

    /// Drops the paragraph opened last but not yet ended (it was hidden
    /// whole), counting its text as one hidden run.
    fn drop_last(&mut self, at: usize) {
        let text = core::mem::take(&mut self.lines[at]);
        self.bytes -= text.len() as u64;
        self.hidden.add(&text, true);
    }

    fn finish(self) -> (String, Hidden) {
        (self.lines.join("\n"), self.hidden)
    }
}

fn damaged(e: impl core::fmt::Display) -> ReadError {
    ReadError::new(
        ReadErrorKind::Damaged,
        alloc::format!("its XML is not well formed ({e})"),
    )
}

fn dtd() -> ReadError {
    ReadError::new(
        ReadErrorKind::Refused,
        "its XML declares a document type, which a .docx or .odt never does (its entities could expand without end): refused",
    )
}

/// The value of the attribute of local name `local` (any prefix),
/// unescaped.
fn attr(e: &BytesStart<'_>, local: &str) -> Option<String> {
    e.attributes()
        .flatten()
        .find(|a| a.key.local_name().as_ref() == local)
        .and_then(|a| {
            a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                .ok()
                .map(|v| v.into_owned())
        })
}

/// A WordprocessingML on/off value (ST_OnOff): absent, `1`, `true`, `on`
/// are on.
fn on_off(e: &BytesStart<'_>) -> bool {
    !matches!(
        attr(e, "val").as_deref(),
        Some("0" | "false" | "off" | "none")
    )
}

/// A WordprocessingML highlight colour by name (ST_HighlightColor).
fn highlight(name: &str) -> Option<Rgb> {
    Some(match name {
        "black" => 0x000000,
        "blue" => 0x0000FF,
        "cyan" => 0x00FFFF,
        "green" => 0x00FF00,
        "magenta" => 0xFF00FF,
        "red" => 0xFF0000,
        "yellow" => 0xFFFF00,
        "white" => 0xFFFFFF,
        "darkBlue" => 0x000080,
        "darkCyan" => 0x008080,
        "darkGreen" => 0x008000,
        "darkMagenta" => 0x800080,
        "darkRed" => 0x800000,
        "darkYellow" => 0x808000,
        "darkGray" => 0x808080,
        "lightGray" => 0xC0C0C0,
        _ => return None,
    })
}

/// Reads one `w:rPr` child into `props`.
fn word_property(local: &str, e: &BytesStart<'_>, props: &mut Props) {
    match local {
        "vanish" => props.vanish = Some(on_off(e)),
        "color" => props.colour = attr(e, "val").and_then(|v| hex_colour(&v)),
        "sz" => {
            props.points = attr(e, "val")
                .and_then(|v| v.trim().parse::<f64>().ok())
                .map(|half| half / 2.0)
        }
        "shd" => {
            if let Some(fill) = attr(e, "fill").and_then(|v| hex_colour(&v)) {
                props.background = Some(fill);
            }
        }
        "highlight" => {
            if let Some(c) = attr(e, "val").and_then(|v| highlight(&v)) {
                props.background = Some(c);
            }
        }
        _ => {}
    }
}

/// Whether a resolved name is in one of `spaces`.
fn is_in(ns: &ResolveResult<'_>, spaces: &[&str]) -> bool {
    matches!(ns, ResolveResult::Bound(n) if spaces.contains(&n.as_ref()))
}

/// Styles by id: their own properties and the style they are based on.
type Styles = BTreeMap<String, (Props, Option<String>)>;

/// A style's properties with those of the styles it is based on (at most
/// 16 levels: a loop ends there).
fn resolve(styles: &Styles, id: Option<&str>) -> Props {
    let mut props = Props::default();
    let mut id = id.map(str::to_string);
    for _ in 0..16 {
        let Some((own, parent)) = id.as_ref().and_then(|i| styles.get(i)) else {
            break;
        };
        props = props.over(*own);
        id = parent.clone();
    }
    props
}

/// Parses the styles of a `word/styles.xml`: each style's `w:rPr` and
/// `w:basedOn`; the document defaults (`w:docDefaults`) under the id "".
pub(crate) fn word_styles(xml: &[u8]) -> Result<Styles, ReadError> {
    let mut reader = quick_xml::NsReader::from_reader(xml);
    let mut buf = Vec::new();
    let mut styles = Styles::new();
    let mut current: Option<(String, Props, Option<String>)> = None;
    let mut in_rpr = 0usize;
    let mut defaults = false;
    loop {
        let (ns, event) = reader.read_resolved_event_into(&mut buf).map_err(damaged)?;
        let w = is_in(&ns, W);
        match event {
            Event::DocType(_) => return Err(dtd()),
            Event::Start(ref e) | Event::Empty(ref e) if w => {
                let empty = matches!(event, Event::Empty(_));
                match e.local_name().as_ref() {
                    "style" if !empty => {
                        current = Some((
                            attr(e, "styleId").unwrap_or_default(),
                            Props::default(),
                            None,
                        ))
                    }
                    "docDefaults" if !empty => defaults = true,
                    "basedOn" => {
                        if let Some(c) = current.as_mut() {
                            c.2 = attr(e, "val");
                        }
                    }
                    "rPr" if !empty => in_rpr += 1,
                    local if in_rpr > 0 => {
                        if let Some(c) = current.as_mut() {
                            word_property(local, e, &mut c.1);
                        } else if defaults {
                            let mut p = styles.get("").map(|s| s.0).unwrap_or_default();
                            word_property(local, e, &mut p);
                            styles.insert(String::new(), (p, None));
                        }
                    }
                    _ => {}
                }
            }
            Event::End(ref e) if w => match e.local_name().as_ref() {
                "style" => {
                    if let Some((id, props, parent)) = current.take() {
                        // Every style rests on the document defaults.
                        let parent = parent.or_else(|| (!id.is_empty()).then(String::new));
                        styles.insert(id, (props, parent));
                    }
                }
                "docDefaults" => defaults = false,
                "rPr" => in_rpr = in_rpr.saturating_sub(1),
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    Ok(styles)
}

/// What closing an element of `document.xml` undoes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum WordFrame {
    Paragraph,
    ParagraphProps,
    Run,
    RunProps,
    Text,
    Skip,
    Other,
}

/// The text of a `word/document.xml`, at most `max` bytes, with the
/// styles of its `styles.xml`.
pub(crate) fn word_text(
    xml: &[u8],
    styles: &Styles,
    max: u64,
) -> Result<(String, Hidden), ReadError> {
    let mut reader = quick_xml::NsReader::from_reader(xml);
    let mut buf = Vec::new();
    let mut lines = Lines::new(max);
    let mut stack: Vec<WordFrame> = Vec::new();
    let mut page = WHITE;
    let defaults = resolve(styles, Some(""));
    // Per open paragraph: its style's properties.
    let mut paragraph: Vec<Props> = Vec::new();
    let mut run = Props::default();
    let mut run_style: Option<String> = None;
    let mut skipped = 0usize;
    let run_hidden = |paragraph: &[Props], run: Props, style: &Option<String>, page: Rgb| {
        let base = paragraph.last().copied().unwrap_or(defaults);
        let styled = match style {
            Some(id) => resolve(styles, Some(id)).over(base),
            None => base,
        };
        run.over(styled).hidden(page)
    };
    loop {
        let (ns, event) = reader.read_resolved_event_into(&mut buf).map_err(damaged)?;
        let w = is_in(&ns, W);
        match event {
            Event::DocType(_) => return Err(dtd()),
            Event::Start(ref e) | Event::Empty(ref e) => {
                let empty = matches!(event, Event::Empty(_));
                let frame = if skipped > 0 {
                    skipped += 1;
                    WordFrame::Skip
                } else if !w {
                    WordFrame::Other
                } else {
                    let within = stack.last().copied();
                    match e.local_name().as_ref() {
                        "background" => {
                            if let Some(c) = attr(e, "color").and_then(|v| hex_colour(&v)) {
                                page = c;
                            }
                            WordFrame::Other
                        }
                        "p" => {
                            lines.begin();
                            paragraph.push(defaults);
                            WordFrame::Paragraph
                        }
                        "pPr" => WordFrame::ParagraphProps,
                        "pStyle" if within == Some(WordFrame::ParagraphProps) => {
                            if let Some(p) = paragraph.last_mut() {
                                *p = resolve(styles, attr(e, "val").as_deref()).over(defaults);
                            }
                            WordFrame::Other
                        }
                        "r" => {
                            run = Props::default();
                            run_style = None;
                            WordFrame::Run
                        }
                        // A paragraph's own w:rPr (in w:pPr) formats its
                        // mark only; a run's formats its text.
                        "rPr" if within == Some(WordFrame::Run) => WordFrame::RunProps,
                        "rStyle" if within == Some(WordFrame::RunProps) => {
                            run_style = attr(e, "val");
                            WordFrame::Other
                        }
                        local if within == Some(WordFrame::RunProps) => {
                            word_property(local, e, &mut run);
                            WordFrame::Other
                        }
                        "t" => WordFrame::Text,
                        // A run's tab and breaks (w:tabs in w:pPr are tab stops).
                        "tab" | "br" | "cr" | "noBreakHyphen" if within == Some(WordFrame::Run) => {
                            let s = match e.local_name().as_ref() {
                                "tab" => "\t",
                                "noBreakHyphen" => "-",
                                _ => "\n",
                            };
                            lines.push(s, run_hidden(&paragraph, run, &run_style, page))?;
                            WordFrame::Other
                        }
                        "delText" | "instrText" | "del" => {
                            skipped = 1;
                            WordFrame::Skip
                        }
                        _ => WordFrame::Other,
                    }
                };
                if empty {
                    close_word(frame, &mut lines, &mut paragraph, &mut skipped);
                } else {
                    stack.push(frame);
                }
            }
            Event::End(_) => {
                if let Some(frame) = stack.pop() {
                    close_word(frame, &mut lines, &mut paragraph, &mut skipped);
                }
            }
            Event::Text(ref t) if stack.last() == Some(&WordFrame::Text) => {
                let text = t.xml10_content();
                lines.push(&text, run_hidden(&paragraph, run, &run_style, page))?;
            }
            Event::GeneralRef(ref r) if stack.last() == Some(&WordFrame::Text) => {
                let s = general_ref(r)?;
                lines.push(&s, run_hidden(&paragraph, run, &run_style, page))?;
            }
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    Ok(lines.finish())
}

fn close_word(
    frame: WordFrame,
    lines: &mut Lines,
    paragraph: &mut Vec<Props>,
    skipped: &mut usize,
) {
    match frame {
        WordFrame::Paragraph => {
            lines.end();
            paragraph.pop();
        }
        WordFrame::Skip => *skipped = skipped.saturating_sub(1),
        _ => {}
    }
}

/// One of the five predefined entities or a character reference.
fn general_ref(r: &quick_xml::events::BytesRef<'_>) -> Result<String, ReadError> {
    if let Some(c) = r.resolve_char_ref().ok().flatten() {
        return Ok(c.to_string());
    }
    let name = r.xml10_content();
    quick_xml::escape::resolve_predefined_entity(&name)
        .map(str::to_string)
        .ok_or_else(|| {
            ReadError::new(
                ReadErrorKind::Damaged,
                alloc::format!("its XML uses an entity &{name}; it does not define"),
            )
        })
}

/// Reads one `style:text-properties` into `props`.
fn odf_properties(e: &BytesStart<'_>, props: &mut Props) {
    for a in e.attributes().flatten() {
        let Ok(v) = a.normalized_value(quick_xml::XmlVersion::Implicit1_0) else {
            continue;
        };
        match a.key.local_name().as_ref() {
            "display" => props.vanish = Some(v.trim() == "none"),
            "color" => props.colour = hex_colour(&v),
            "font-size" => props.points = points(&v),
            "background-color" => props.background = hex_colour(&v),
            _ => {}
        }
    }
}

/// Parses the styles of an OpenDocument part (`styles.xml`, or the
/// automatic styles of `content.xml`) into `styles`: each
/// `style:style`'s text properties and parent. Stops at `office:body`.
fn odf_styles(
    reader: &mut quick_xml::NsReader<&[u8]>,
    styles: &mut Styles,
) -> Result<bool, ReadError> {
    let mut buf = Vec::new();
    let mut current: Option<(String, Props, Option<String>)> = None;
    loop {
        let (ns, event) = reader.read_resolved_event_into(&mut buf).map_err(damaged)?;
        let style = is_in(&ns, &[STYLE]);
        match event {
            Event::DocType(_) => return Err(dtd()),
            Event::Start(ref e) | Event::Empty(ref e) => {
                let empty = matches!(event, Event::Empty(_));
                match e.local_name().as_ref() {
                    "style" if style => {
                        let entry = (
                            attr(e, "name").unwrap_or_default(),
                            Props::default(),
                            attr(e, "parent-style-name"),
                        );
                        if empty {
                            styles.insert(entry.0, (entry.1, entry.2));
                        } else {
                            current = Some(entry);
                        }
                    }
                    "text-properties" if style => {
                        if let Some(c) = current.as_mut() {
                            odf_properties(e, &mut c.1);
                        }
                    }
                    "body" => return Ok(true),
                    _ => {}
                }
            }
            Event::End(ref e) if style && e.local_name().as_ref() == "style" => {
                if let Some((name, props, parent)) = current.take() {
                    styles.insert(name, (props, parent));
                }
            }
            Event::Eof => return Ok(false),
            _ => {}
        }
        buf.clear();
    }
}

/// Parses the styles of an OpenDocument `styles.xml`.
pub(crate) fn odf_style_part(xml: &[u8]) -> Result<Styles, ReadError> {
    let mut styles = Styles::new();
    odf_styles(&mut quick_xml::NsReader::from_reader(xml), &mut styles)?;
    Ok(styles)
}

/// What closing an element of `content.xml` undoes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum OdfFrame {
    Paragraph,
    Skip,
    Other,
}

/// Whether an ODF hidden field or paragraph is hidden: `text:is-hidden`
/// true, or a condition that is literally true.
fn odf_is_hidden(e: &BytesStart<'_>) -> bool {
    attr(e, "is-hidden").is_some_and(|v| v.trim() == "true")
        || attr(e, "condition").is_some_and(|c| {
            matches!(
                c.trim().rsplit(':').next().unwrap_or(""),
                "true" | "TRUE" | "1"
            )
        })
}

/// The text of an OpenDocument `content.xml`, at most `max` bytes, with the
/// styles of its `styles.xml`.
pub(crate) fn odf_text(
    xml: &[u8],
    mut styles: Styles,
    max: u64,
) -> Result<(String, Hidden), ReadError> {
    let mut reader = quick_xml::NsReader::from_reader(xml);
    if !odf_styles(&mut reader, &mut styles)? {
        return Ok((String::new(), Hidden::default()));
    }
    let mut buf = Vec::new();
    let mut lines = Lines::new(max);
    // Per open element: what closing it undoes and the properties inside.
    let mut stack: Vec<(OdfFrame, Props)> = Vec::new();
    // Paragraphs marked hidden whole (by a text:hidden-paragraph), by line.
    let mut hidden_lines: Vec<usize> = Vec::new();
    let mut skipped = 0usize;
    let mut skipped_hidden = false;
    loop {
        let (ns, event) = reader.read_resolved_event_into(&mut buf).map_err(damaged)?;
        let text_ns = is_in(&ns, &[TEXT]);
        let inherited = stack.last().map(|f| f.1).unwrap_or_default();
        match event {
            Event::DocType(_) => return Err(dtd()),
            Event::Start(ref e) | Event::Empty(ref e) => {
                let empty = matches!(event, Event::Empty(_));
                let mut props = inherited;
                if text_ns {
                    if let Some(name) = attr(e, "style-name") {
                        props = resolve(&styles, Some(&name)).over(inherited);
                    }
                }
                let frame = if skipped > 0 {
                    skipped += 1;
                    OdfFrame::Skip
                } else if !text_ns {
                    OdfFrame::Other
                } else {
                    match e.local_name().as_ref() {
                        "p" | "h" => {
                            lines.begin();
                            OdfFrame::Paragraph
                        }
                        "section" if attr(e, "display").as_deref() == Some("none") => {
                            props.vanish = Some(true);
                            OdfFrame::Other
                        }
                        "s" => {
                            let n = attr(e, "c")
                                .and_then(|c| c.trim().parse::<usize>().ok())
                                .unwrap_or(1);
                            lines.push(&" ".repeat(n.clamp(1, 1000)), props.hidden(WHITE))?;
                            OdfFrame::Other
                        }
                        "tab" => {
                            lines.push("\t", props.hidden(WHITE))?;
                            OdfFrame::Other
                        }
                        "line-break" => {
                            lines.push("\n", props.hidden(WHITE))?;
                            OdfFrame::Other
                        }
                        "hidden-paragraph" => {
                            if odf_is_hidden(e) {
                                if let Some(&at) = lines.open.last() {
                                    hidden_lines.push(at);
                                }
                            }
                            OdfFrame::Other
                        }
                        "hidden-text" if odf_is_hidden(e) => {
                            // Its text is the string value (and, as shown
                            // when not hidden, its content).
                            let value = attr(e, "string-value").unwrap_or_default();
                            lines.push(&value, true)?;
                            skipped = 1;
                            skipped_hidden = false;
                            OdfFrame::Skip
                        }
                        "note-citation" | "tracked-changes" => {
                            skipped = 1;
                            skipped_hidden = false;
                            OdfFrame::Skip
                        }
                        _ => OdfFrame::Other,
                    }
                };
                if !empty {
                    stack.push((frame, props));
                } else if frame == OdfFrame::Skip {
                    skipped -= 1;
                } else if frame == OdfFrame::Paragraph {
                    lines.end();
                }
            }
            Event::End(_) => match stack.pop() {
                Some((OdfFrame::Paragraph, _)) => {
                    if let Some(&at) = lines.open.last() {
                        if hidden_lines.last() == Some(&at) {
                            hidden_lines.pop();
                            lines.drop_last(at);
                        }
                    }
                    lines.end();
                }
                Some((OdfFrame::Skip, _)) => skipped = skipped.saturating_sub(1),
                _ => {}
            },
            Event::Text(ref t) if skipped == 0 => {
                let text = collapse(&t.xml10_content());
                lines.push(&text, inherited.hidden(WHITE))?;
            }
            Event::GeneralRef(ref r) if skipped == 0 => {
                let s = general_ref(r)?;
                lines.push(&s, inherited.hidden(WHITE))?;
            }
            Event::Eof => break,
            _ => {}
        }
        let _ = skipped_hidden;
        buf.clear();
    }
    Ok(lines.finish())
}

/// Runs of white space as one space (OpenDocument's text nodes; spaces it
/// keeps are `text:s`).
fn collapse(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    super::collapse_into(s, &mut out);
    out
}
