//! `neardup eval --library`: how a reference library's matches separate
//! copies from chance, and so the least number of shared fingerprints a
//! listed match needs ([`neardup::classset::library::MIN_SHARED`]).
//!
//! The library holds the Clough–Stevenson corpus's three sources and
//! `--distractors` unrelated docs-bench originals (real prose on other
//! subjects); the students are the corpus's 57 answers. A copy is an answer
//! labelled cut, light or heavy against its own source; every other match
//! is a false alarm (an original answer against its source, or any answer
//! against another task's source or a distractor). The cut-off on
//! containment is the smallest a class run uses (0.05, a class of up to 20
//! texts). Each least number of shared fingerprints is reported on all the
//! answers, then chosen leave-one-task-out (the smallest with no false
//! alarm on the other two tasks) and judged on the held-out task.

use crate::verdict::{self as train, is_copied};
use anyhow::{Context, Result};
use neardup::classset::library::{Library, LibraryMatch, MIN_SHARED};
use neardup::classset::ClassSetConfig;
use std::collections::BTreeSet;
use std::io::{self, BufRead, Write};
use std::path::Path;
use std::process::ExitCode;

/// The cut-off on containment of a class of up to 20 texts.
const CUT_OFF: f64 = 0.05;

/// Matches found, copies found and missed, and false alarms.
#[derive(Clone, Copy, Default)]
struct Count {
    copies: usize,
    missed: usize,
    false_alarms: usize,
}

pub fn run(clough: &Path, docs_bench: &Path, distractors: usize) -> Result<ExitCode> {
    let pairs = train::read_clough(clough)?;
    let mut sources: Vec<(String, String)> = Vec::new();
    for p in &pairs {
        if !sources.iter().any(|(n, _)| *n == p.source) {
            sources.push((p.source.clone(), p.b.clone()));
        }
    }
    let file = std::fs::File::open(docs_bench)
        .with_context(|| format!("cannot read {}", docs_bench.display()))?;
    let mut others: Vec<(String, String)> = Vec::new();
    for line in io::BufReader::new(file).lines() {
        if others.len() == distractors {
            break;
        }
        #[derive(serde::Deserialize)]
        struct Doc {
            id: String,
            text: String,
        }
        let d: Doc = serde_json::from_str(&line?).context("a docs-bench line")?;
        // Originals only: an edited copy (`sv…`) is another's near copy.
        if !d.id.starts_with("sv") {
            others.push((d.id, d.text));
        }
    }
    let mut library = Library::new(&ClassSetConfig::default()).map_err(crate::core)?;
    let texts: Vec<(&str, &str)> = sources
        .iter()
        .chain(&others)
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    library.add(&texts).map_err(crate::core)?;
    let answers: Vec<&str> = pairs.iter().map(|p| p.a.as_str()).collect();
    // Every match sharing at least one fingerprint; the rule is applied below.
    let all = library
        .check_sharing(&answers, CUT_OFF, 1)
        .map_err(crate::core)?;
    let copy = |m: &LibraryMatch| {
        let p = &pairs[m.student as usize];
        library.names()[m.text as usize] == p.source && is_copied(&p.label)
    };
    let count = |min_shared: u32, tasks: &BTreeSet<&str>| {
        let mut c = Count::default();
        let found: BTreeSet<u32> = all
            .iter()
            .filter(|m| m.shared >= min_shared && copy(m))
            .map(|m| m.student)
            .collect();
        for (i, p) in pairs.iter().enumerate() {
            if tasks.contains(p.group.as_str()) && is_copied(&p.label) {
                if found.contains(&(i as u32)) {
                    c.copies += 1;
                } else {
                    c.missed += 1;
                }
            }
        }
        c.false_alarms = all
            .iter()
            .filter(|m| {
                m.shared >= min_shared
                    && !copy(m)
                    && tasks.contains(pairs[m.student as usize].group.as_str())
            })
            .count();
        c
    };
    let tasks: BTreeSet<&str> = pairs.iter().map(|p| p.group.as_str()).collect();
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "Library: {} sources and {} docs-bench originals; students: {} answers ({} copied); cut-off {CUT_OFF}",
        sources.len(),
        others.len(),
        pairs.len(),
        pairs.iter().filter(|p| is_copied(&p.label)).count()
    )?;
    writeln!(
        out,
        "\n| least shared | copies found | missed | false alarms |"
    )?;
    writeln!(out, "|---|---|---|---|")?;
    for m in 1..=6 {
        let c = count(m, &tasks);
        let mark = if m == MIN_SHARED { " (the core's)" } else { "" };
        writeln!(
            out,
            "| {m}{mark} | {} | {} | {} |",
            c.copies, c.missed, c.false_alarms
        )?;
    }
    writeln!(
        out,
        "\nLeave one task out (the smallest least-shared with no false alarm on the other tasks):"
    )?;
    writeln!(
        out,
        "\n| held out | chosen | copies found | missed | false alarms |"
    )?;
    writeln!(out, "|---|---|---|---|---|")?;
    for held in &tasks {
        let rest: BTreeSet<&str> = tasks.iter().copied().filter(|t| t != held).collect();
        let chosen = (1..=64)
            .find(|&m| count(m, &rest).false_alarms == 0)
            .unwrap_or(64);
        let c = count(chosen, &BTreeSet::from([*held]));
        writeln!(
            out,
            "| {held} | {chosen} | {} | {} | {} |",
            c.copies, c.missed, c.false_alarms
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
