//! `neardup compare`: a suspicious text against a source, or many pairs from
//! JSONL, with the learned verdict.

use crate::input::read_text;
use crate::options::CompareOptions;
use anyhow::{bail, Context, Result};
use clap::Args;
use neardup::verdict::{SvmModel, Verdict};
use neardup::{compare_with, CompareConfig, Exclusions, Report};
use serde::Serialize;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args)]
pub struct CompareArgs {
    /// The suspicious text (a file).
    #[arg(required_unless_present = "pairs", conflicts_with = "pairs")]
    a: Option<PathBuf>,
    /// The source text (a file).
    #[arg(required_unless_present = "pairs", conflicts_with = "pairs")]
    b: Option<PathBuf>,
    /// JSONL file of {"id": …, "a": "<text>", "b": "<text>"} lines ("-" for
    /// standard input); writes one {"id": …, <report>} line per input line.
    #[arg(long)]
    pairs: Option<PathBuf>,
    /// Print the report as JSON (always on with --pairs).
    #[arg(long)]
    json: bool,
    /// A verdict model JSON from `neardup train` (default: the built-in
    /// model trained on clough-abc).
    #[arg(long, conflicts_with = "no_model")]
    model: Option<PathBuf>,
    /// Report the measures only, without the learned verdict.
    #[arg(long)]
    no_model: bool,
    /// The assignment's template or prompt (a file): its phrases are left
    /// out of both texts.
    #[arg(long, value_name = "FILE")]
    template: Option<PathBuf>,
    #[command(flatten)]
    opts: CompareOptions,
}

/// The model trained on all of clough-abc (`assets/model.json`).
const DEFAULT_MODEL: &str = neardup::assets::MODEL_JSON;

/// The model at `path`, or the built-in one.
pub fn load_model(path: Option<&Path>) -> Result<SvmModel> {
    match path {
        Some(p) => {
            let text = crate::input::read_bounded_text(p, crate::input::MAX_FILE_READ)?;
            SvmModel::from_json(&text).with_context(|| p.display().to_string())
        }
        None => SvmModel::from_json(DEFAULT_MODEL).context("built-in model"),
    }
}

/// The report of one pair, with the verdict when there is a model: each
/// text normalised and shingled once for both (the core's
/// `SvmModel::compare`), the template's phrases and the exclusions of
/// `config` left out.
fn judge(
    a: &str,
    b: &str,
    config: &CompareConfig,
    template: &str,
    model: Option<&SvmModel>,
) -> Result<(Report, Option<Verdict>)> {
    let exclusions = Exclusions {
        template,
        ..Exclusions::default()
    };
    Ok(match model {
        Some(m) => {
            let (report, verdict) = m.compare(a, b, config, &exclusions).map_err(crate::core)?;
            (report, Some(verdict))
        }
        None => (
            compare_with(a, b, config, &exclusions).map_err(crate::core)?,
            None,
        ),
    })
}

pub fn run(args: CompareArgs) -> Result<ExitCode> {
    let config = args.opts.config()?;
    let model = if args.no_model {
        None
    } else {
        Some(load_model(args.model.as_deref())?)
    };
    let template = match &args.template {
        Some(t) => read_text(t)?,
        None => String::new(),
    };
    if let Some(pairs) = &args.pairs {
        return run_pairs(pairs, &config, &template, model.as_ref());
    }
    let (Some(pa), Some(pb)) = (&args.a, &args.b) else {
        return Err(crate::usage("compare needs two files, or --pairs"));
    };
    let (a, b) = (read_text(pa)?, read_text(pb)?);
    let (report, verdict) = judge(&a, &b, &config, &template, model.as_ref())?;
    let mut out = BufWriter::new(io::stdout().lock());
    if args.json {
        serde_json::to_writer(
            &mut out,
            &PairOut {
                id: None,
                report: &report,
                verdict: verdict.as_ref(),
            },
        )?;
        writeln!(out)?;
    } else {
        print_report(&mut out, &report, &a, &b)?;
        if let Some(v) = &verdict {
            writeln!(
                out,
                "verdict            {} (class {}; binary decision {:+.3})",
                if v.copied { "reuse" } else { "no reuse" },
                v.class.as_deref().unwrap_or("-"),
                v.binary_decision
            )?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn print_report(out: &mut impl Write, r: &Report, a: &str, b: &str) -> io::Result<()> {
    let m = &r.measures;
    writeln!(
        out,
        "score {:.3}  (containment of A in B by {}word {}-shingles)",
        m.score,
        r.options
            .phonetic
            .map_or(String::new(), |p| format!("{p}-coded ")),
        r.options.word_k
    )?;
    for (which, o) in [("A", &r.obfuscation_a), ("B", &r.obfuscation_b)] {
        if let Some(w) = &o.warning {
            writeln!(out, "warning ({which})        {w}")?;
        }
    }
    writeln!(out, "resemblance        {:.3}", m.resemblance)?;
    writeln!(out, "containment B in A {:.3}", m.containment_b_in_a)?;
    writeln!(out, "dice               {:.3}", m.dice)?;
    writeln!(
        out,
        "char resemblance   {:.3}  (character {}-grams)",
        m.char_resemblance, r.options.char_q
    )?;
    writeln!(out, "cosine (words)     {:.3}", m.cosine)?;
    writeln!(
        out,
        "shared shingles    {} of {} in A, {} in B",
        m.shared_shingles, m.shingles_a, m.shingles_b
    )?;
    writeln!(
        out,
        "coverage           {:.3} of A's {} words, {:.3} of B's {} words",
        m.coverage_a, m.tokens_a, m.coverage_b, m.tokens_b
    )?;
    if let Some(algorithm) = r.options.phonetic {
        writeln!(
            out,
            "misspellings       {} (words matched by {algorithm} code)",
            r.misspellings.len()
        )?;
        for m in r.misspellings.iter().take(20) {
            writeln!(
                out,
                "  {:?} ~ {:?}",
                &a[m.a.start..m.a.end],
                &b[m.b.start..m.b.end]
            )?;
        }
    }
    writeln!(out, "shared passages    {}", r.passages.len())?;
    for p in &r.passages {
        let text: String = a[p.a.start..p.a.end]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let shown: String = text.chars().take(100).collect();
        let more = if shown.len() < text.len() { "…" } else { "" };
        writeln!(
            out,
            "  A[{}..{}] = B[{}..{}]  \"{shown}{more}\"",
            p.a.start, p.a.end, p.b.start, p.b.end
        )?;
    }
    Ok(())
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct PairLine {
    id: serde_json::Value,
    a: String,
    b: String,
}

#[derive(Serialize)]
struct PairOut<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<&'a serde_json::Value>,
    #[serde(flatten)]
    report: &'a Report,
    #[serde(skip_serializing_if = "Option::is_none")]
    verdict: Option<&'a Verdict>,
}

fn run_pairs(
    path: &Path,
    config: &CompareConfig,
    template: &str,
    model: Option<&SvmModel>,
) -> Result<ExitCode> {
    let mut input = crate::input::open(path)?;
    let mut out = BufWriter::new(io::stdout().lock());
    let mut failed = 0usize;
    let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
    crate::input::for_each_line(&mut input, |n, line| {
        let result = (|| -> Result<Option<String>> {
            let line = line?;
            let s = std::str::from_utf8(line).context("not valid UTF-8")?;
            let s = s.trim();
            if s.is_empty() {
                return Ok(None);
            }
            let p: PairLine =
                serde_json::from_str(s).context("not a {\"id\", \"a\", \"b\"} JSON object")?;
            if !seen.insert(p.id.to_string()) {
                bail!("duplicate id {}", crate::input::shown(&p.id.to_string()));
            }
            let (report, verdict) = judge(&p.a, &p.b, config, template, model)?;
            Ok(Some(serde_json::to_string(&PairOut {
                id: Some(&p.id),
                report: &report,
                verdict: verdict.as_ref(),
            })?))
        })();
        match result {
            Ok(Some(json)) => writeln!(out, "{json}")?,
            Ok(None) => {}
            Err(e) => {
                failed += 1;
                out.flush()?;
                eprintln!("neardup: {}: line {n}: {e:#}", path.display());
            }
        }
        Ok(())
    })?;
    out.flush()?;
    if failed > 0 {
        eprintln!("neardup: {failed} line(s) failed; the others were written");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
