//! The text of an HTML document: its body, one line per block element,
//! each text's white space runs folded to one space, spaces around line
//! breaks dropped, two breaks or more a blank line (a `<br>` or `<hr>`
//! ends its line and the next), scripts, styles and the head left out,
//! character references decoded. Tokenized by html5gum (WHATWG HTML
//! §13.2.5): nothing runs, nothing loads.
//!
//! Hidden text (module `hidden`): an element with the `hidden` attribute,
//! or whose inline `style` says `display:none`, `visibility:hidden` (or
//! `collapse`), `opacity:0` or a font of 2 pt or less, is left out with all
//! it holds and counted. Style sheets are not applied (that would need a
//! CSS engine): a class that hides text is not seen. A hidden element
//! whose end tag may be left out (`p`, `li`, `dt`, `dd`, `tr`, `td`, `th`,
//! `option`) ends where the parser would close it, so that an unclosed
//! hidden paragraph never hides the text after it.

use super::hidden::{points, Hidden};
use super::{over_text, ReadError};
use alloc::string::String;
use alloc::vec::Vec;

/// Elements that end a line.
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
/// Elements whose content is not text to compare.
const SKIP: &[&str] = &[
    "script", "style", "noscript", "template", "head", "title", "svg", "math",
];
/// Elements that hold nothing (no end tag follows).
const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
    "wbr",
];

/// Whether the start tag `next` closes an open `hidden` element whose end
/// tag may be left out (WHATWG HTML §13.1.2.4, optional tags).
fn closes(hidden: &str, next: &str) -> bool {
    match hidden {
        "p" => BLOCK.contains(&next) && next != "br",
        "li" => next == "li",
        "dt" | "dd" => next == "dt" || next == "dd",
        "tr" => next == "tr",
        "td" | "th" => matches!(next, "td" | "th" | "tr"),
        "option" => next == "option",
        _ => false,
    }
}

/// Whether an inline style hides its element.
fn style_hides(style: &str) -> bool {
    style.split(';').any(|decl| {
        let Some((prop, value)) = decl.split_once(':') else {
            return false;
        };
        let prop = prop.trim().to_ascii_lowercase();
        let value = value.to_ascii_lowercase();
        let value = value.trim().trim_end_matches("!important").trim();
        match prop.as_str() {
            "display" => value == "none",
            "visibility" => value == "hidden" || value == "collapse",
            "opacity" => value.parse::<f64>().is_ok_and(|o| o <= 0.0),
            "font-size" => points(value).is_some_and(|p| p <= super::hidden::TINY_POINTS),
            _ => false,
        }
    })
}

/// The text of an HTML document (module docs), at most `max` bytes.
pub(crate) fn html_text(html: &str, max: u64) -> Result<(String, Hidden), ReadError> {
    use html5gum::{emitters::default::DefaultEmitter, Token, Tokenizer};
    let mut emitter = DefaultEmitter::default();
    // Script, style and the like are read as raw text, as a browser does.
    emitter.naively_switch_states(true);
    let mut out = String::with_capacity(html.len() / 2);
    let mut hidden = Hidden::default();
    let mut skip = 0usize;
    // The hidden element open: its name and how deep its own name nests.
    let mut hiding: Option<(String, usize)> = None;
    // Whether the hidden element open has had text yet (its texts are one
    // run).
    let mut counted = false;
    for token in Tokenizer::new_with_emitter(html, emitter).flatten() {
        match token {
            Token::StartTag(tag) => {
                let name = String::from_utf8_lossy(&tag.name).to_ascii_lowercase();
                let void = tag.self_closing || VOID.contains(&name.as_str());
                if let Some((open, depth)) = hiding.as_mut() {
                    if *depth == 1 && closes(open, &name) {
                        hiding = None;
                    } else {
                        if *open == name && !void {
                            *depth += 1;
                        }
                        continue;
                    }
                }
                let hides = tag.attributes.iter().any(|(k, v)| {
                    let k = String::from_utf8_lossy(k).to_ascii_lowercase();
                    k == "hidden" || (k == "style" && style_hides(&String::from_utf8_lossy(v)))
                });
                if hides && !void && skip == 0 {
                    hiding = Some((name, 1));
                    counted = false;
                    continue;
                }
                if SKIP.contains(&name.as_str()) {
                    if !tag.self_closing {
                        skip += 1;
                    }
                } else if skip == 0 && BLOCK.contains(&name.as_str()) {
                    out.push_str(if name == "br" || name == "hr" {
                        "\n\n"
                    } else {
                        "\n"
                    });
                }
            }
            Token::EndTag(tag) => {
                let name = String::from_utf8_lossy(&tag.name).to_ascii_lowercase();
                if let Some((open, depth)) = hiding.as_mut() {
                    if *open == name {
                        *depth -= 1;
                        if *depth == 0 {
                            hiding = None;
                        }
                    } else if name == "body" || name == "html" {
                        hiding = None;
                    }
                    continue;
                }
                if SKIP.contains(&name.as_str()) {
                    skip = skip.saturating_sub(1);
                } else if skip == 0 && BLOCK.contains(&name.as_str()) {
                    out.push('\n');
                }
            }
            Token::String(text) if skip == 0 => {
                let text = String::from_utf8_lossy(&text);
                if hiding.is_some() {
                    let folded: Vec<&str> = text.split_whitespace().collect();
                    if !folded.is_empty() {
                        hidden.add(&folded.join(" "), !counted);
                        counted = true;
                    }
                    continue;
                }
                super::collapse_into(&text, &mut out);
                if out.len() as u64 > max.saturating_mul(2) + 1024 {
                    return Err(over_text(max));
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
    let text = String::from(text.trim());
    if text.len() as u64 > max {
        return Err(over_text(max));
    }
    Ok((text, hidden))
}
