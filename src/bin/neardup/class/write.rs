//! `neardup class`, step 3: what was asked for — the evidence pack (written
//! atomically), the JSON, the CSV or the tab-separated list on standard
//! output — and the summary and notes on standard error.

use super::read::Inputs;
use super::ClassArgs;
use crate::input::write_atomic;
use anyhow::Result;
use neardup::classset::run::{ClassRun, PackInput, RowKind};
use std::io::{self, BufWriter, Write};

/// Writes the outputs `args` ask for, then the summary and notes.
pub fn write(args: &ClassArgs, inputs: &Inputs, run: &ClassRun) -> Result<()> {
    let names = inputs.names();
    if let Some(path) = &args.evidence {
        let files: Vec<_> = inputs
            .students
            .files
            .iter()
            .chain(&inputs.sources.files)
            .cloned()
            .collect();
        let made = format!(
            "Made {} UTC by neardup class; nothing was uploaded.",
            utc_minute(std::time::SystemTime::now())
        );
        let pack = run.evidence_pack(PackInput {
            texts: &inputs.texts(),
            names,
            files: &files,
            made: &made,
            template_sha256: (!inputs.template.trim().is_empty())
                .then(|| neardup::read::sha256_hex(inputs.template.as_bytes())),
            reviews: &[],
            pseudonyms: args.pseudonyms,
            library_texts: inputs.library.as_ref().map_or(&[], |l| l.texts()),
        });
        let html = pack.to_html().map_err(crate::core)?;
        write_atomic(path, |w| w.write_all(html.as_bytes()))?;
    }
    let mut out = BufWriter::new(io::stdout().lock());
    if args.json {
        writeln!(out, "{}", run.to_json(&names).map_err(crate::core)?)?;
    } else if args.csv {
        out.write_all(run.to_csv(&names, &[], args.pseudonyms).as_bytes())?;
    } else {
        tab_separated(&mut out, inputs, run)?;
    }
    out.flush()?;
    summary(inputs, run);
    Ok(())
}

/// The default output: one tab-separated line per pair at or above the
/// cut-off (the class measure's figures), then per library match.
fn tab_separated(out: &mut impl Write, inputs: &Inputs, run: &ClassRun) -> io::Result<()> {
    let names = inputs.names();
    // Names as given (the TSV's, unescaped, sources without a prefix).
    let name = |i: u32| {
        let i = i as usize;
        names
            .students
            .get(i)
            .or_else(|| names.sources.get(i - names.students.len()))
            .map_or("", String::as_str)
    };
    writeln!(
        out,
        "score\tshared\tcontainment_ab\tcontainment_ba\tresemblance\tkind\ta\tb"
    )?;
    let report = &run.report;
    for p in report.pairs.iter().filter(|p| p.score >= report.cut_off) {
        writeln!(
            out,
            "{:.4}\t{}\t{:.4}\t{:.4}\t{:.4}\t{}\t{}\t{}",
            p.score,
            p.shared,
            p.containment_ab,
            p.containment_ba,
            p.resemblance,
            if p.source { "source" } else { "students" },
            name(p.a),
            name(p.b)
        )?;
    }
    for m in run.rows.iter().filter(|m| m.kind == RowKind::Library) {
        writeln!(
            out,
            "{:.4}\t{}\t{:.4}\t{:.4}\t\tlibrary\t{}\t{}",
            m.similarity,
            m.shared,
            m.containment_ab,
            m.containment_ba,
            name(m.a),
            names.library[m.b as usize]
        )?;
    }
    Ok(())
}

/// The run's summary and its notes (groups of identical texts, passages
/// shared by many students), on standard error.
fn summary(inputs: &Inputs, run: &ClassRun) {
    let students = &inputs.students.names;
    let report = &run.report;
    let quotations: u32 = report.texts.iter().map(|t| t.quotations).sum();
    let references = report.texts.iter().filter(|t| t.reference_list).count();
    let listed = run
        .rows
        .iter()
        .filter(|r| r.kind != RowKind::Library)
        .count();
    eprintln!(
        "neardup: {} students, {} sources: {listed} {} at or above the cut-off {:.2} of {} sharing a shingle; \
         {} stock phrases (in more than {} students' texts), {quotations} quotations \
         and {references} reference lists left out",
        students.len(),
        inputs.sources.names.len(),
        if listed == 1 { "pair" } else { "pairs" },
        report.cut_off,
        report.candidates,
        report.stock_phrases,
        report.stock_limit,
    );
    for g in &report.groups {
        eprintln!(
            "neardup: note: {} students handed in identical texts (after normalisation and \
             exclusions): {}; listed once, as {} and {}",
            g.len(),
            some_names(students, g),
            students[g[0] as usize],
            students[g[1] as usize]
        );
    }
    for p in report.shared_passages.iter().take(10) {
        eprintln!(
            "neardup: note: a passage of {} words is in {} students' texts ({}): \
             give it as --template if the assignment holds it, as --source if it is a common source",
            p.words,
            p.texts.len(),
            some_names(students, &p.texts)
        );
    }
}

/// The names of texts `ids`, at most ten of them, then how many more.
fn some_names(names: &[String], ids: &[u32]) -> String {
    let shown: Vec<&str> = ids
        .iter()
        .take(10)
        .map(|&i| names[i as usize].as_str())
        .collect();
    match ids.len() {
        n if n > 10 => format!("{}, and {} more", shown.join(", "), n - 10),
        _ => shown.join(", "),
    }
}

/// `time` as `YYYY-MM-DD HH:MM` in UTC (the evidence pack's date, as the
/// page writes it).
fn utc_minute(time: std::time::SystemTime) -> String {
    let rfc3339 = humantime::format_rfc3339_seconds(time).to_string();
    rfc3339.get(..16).unwrap_or(&rfc3339).replace('T', " ")
}
