//! Labelled pairs for training and evaluation: the Clough–Stevenson
//! corpus (Clough & Stevenson 2011) or JSONL, their documents, and the
//! keywords' document frequencies.

use super::DF_SEED;
use anyhow::{bail, Context, Result};
use neardup::tfidf::DocumentFrequencies;
use neardup::verdict::keyword_terms;
use neardup::Document;
use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

/// A labelled pair: suspicious text, source, class, group (task).
pub struct Pair {
    /// An id for messages (the answer's file name, or the JSONL id).
    pub id: String,
    /// The source's name (its file name, or the JSONL id with "/b").
    pub source: String,
    pub a: String,
    pub b: String,
    pub label: String,
    pub group: String,
    /// What the pair is: labelled data, or an anchor made from it.
    pub kind: Kind,
}

/// Where a pair's label comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Labelled by people (the corpus, the JSONL).
    Labelled,
    /// An anchor: a text against itself, the highest grade by construction.
    Itself,
    /// An anchor: a text against another group's source sharing no word
    /// 3-shingle with it, the lowest grade by construction.
    Unrelated,
}

/// The binary positive: every class but "non" is reuse.
pub fn is_copied(label: &str) -> bool {
    label != "non"
}

/// Reads the clough-abc folder: `labels.csv` (columns `file`,
/// `source_file`, `task`, `category`) and the texts under `texts/`.
pub fn read_clough(dir: &Path) -> Result<Vec<Pair>> {
    #[derive(serde::Deserialize)]
    struct Row {
        file: String,
        source_file: String,
        task: String,
        category: String,
    }
    let labels_path = dir.join("labels.csv");
    let mut reader = csv::Reader::from_path(&labels_path)
        .with_context(|| format!("cannot read {}", labels_path.display()))?;
    let read = |name: &str| -> Result<String> {
        let p = dir.join("texts").join(name);
        let bytes = fs::read(&p).with_context(|| format!("cannot read {}", p.display()))?;
        Ok(crate::input::decode(&bytes).0)
    };
    let mut out = Vec::new();
    for row in reader.deserialize() {
        let r: Row = row.with_context(|| labels_path.display().to_string())?;
        out.push(Pair {
            a: read(&r.file)?,
            b: read(&r.source_file)?,
            id: r.file,
            source: r.source_file,
            label: r.category,
            group: r.task,
            kind: Kind::Labelled,
        });
    }
    Ok(out)
}

/// Reads JSONL `{"a", "b", "label", "group"?, "id"?}`.
pub fn read_jsonl(path: &Path) -> Result<Vec<Pair>> {
    let text =
        fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let v: serde_json::Value = serde_json::from_str(line)
            .with_context(|| format!("{}: line {}", path.display(), i + 1))?;
        let s = |k: &str| v[k].as_str().map(String::from);
        let (Some(a), Some(b), Some(label)) = (s("a"), s("b"), s("label")) else {
            bail!(
                "{}: line {}: needs string fields a, b and label",
                path.display(),
                i + 1
            );
        };
        let id = s("id").unwrap_or_else(|| format!("line{}", i + 1));
        out.push(Pair {
            source: format!("{id}/b"),
            id,
            a,
            b,
            label,
            group: s("group").unwrap_or_else(|| format!("line{}", i + 1)),
            kind: Kind::Labelled,
        });
    }
    Ok(out)
}

/// The documents of a pair, normalised once (with the model's seed).
pub fn documents(p: &Pair) -> (Document, Document) {
    (Document::new(&p.a, DF_SEED), Document::new(&p.b, DF_SEED))
}

/// Document frequencies over the distinct texts of `pairs` (keyword terms).
pub fn fit_df(pairs: &[&Pair]) -> DocumentFrequencies {
    let mut seen = BTreeSet::new();
    let mut df = DocumentFrequencies::new();
    for p in pairs {
        for t in [&p.a, &p.b] {
            if seen.insert(neardup::hash::bytes_hash(0, t.as_bytes())) {
                df.add_document(&keyword_terms(&Document::new(t, DF_SEED), DF_SEED));
            }
        }
    }
    df
}

/// The grades of the Clough–Stevenson corpus, lowest first.
pub const CLOUGH_GRADES: [&str; 4] = ["non", "heavy", "light", "cut"];

pub fn classes_of(pairs: &[Pair]) -> Vec<String> {
    pairs
        .iter()
        .map(|p| p.label.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}
