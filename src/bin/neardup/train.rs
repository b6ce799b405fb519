//! `neardup train`: the learned verdict. Similarity vectors of labelled
//! pairs, feature scaling, support vector machines fitted by `linfa-svm`
//! (SMO), hyper-parameters by cross-validation grouped by task, and export
//! to the model JSON that `neardup::verdict` evaluates (natively and in
//! WebAssembly). The training itself is in `verdict/`.

use crate::verdict::{
    fit_calibrated, is_copied, read_clough, read_jsonl, select, KernelChoice, ModelArgs, Pair,
};
use anyhow::{bail, Result};
use clap::Args;
use neardup::verdict::Scheme;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct TrainArgs {
    /// The clough-abc folder (labels.csv and texts/), or the environment
    /// variable NEARDUP_CLOUGH; needed unless --pairs is given.
    #[arg(
        long,
        env = "NEARDUP_CLOUGH",
        required_unless_present = "pairs",
        conflicts_with = "pairs"
    )]
    clough: Option<PathBuf>,
    /// Labelled pairs instead: JSONL of {"a", "b", "label", "group"?}.
    #[arg(long)]
    pairs: Option<PathBuf>,
    /// Where to write the model JSON.
    #[arg(long, short, default_value = "model.json")]
    output: PathBuf,
    /// Kernels to choose from by cross-validation.
    #[arg(long, value_enum, default_value = "both")]
    kernel: KernelChoice,
    #[command(flatten)]
    pub model: ModelArgs,
}

pub fn run(args: TrainArgs) -> Result<ExitCode> {
    crate::input::check_output(&args.output)?;
    let (pairs, source) = match &args.pairs {
        Some(p) => (read_jsonl(p)?, p.display().to_string()),
        None => {
            let dir = args.clough.as_deref().ok_or_else(|| {
                crate::usage("train needs --clough DIR (or NEARDUP_CLOUGH) or --pairs FILE")
            })?;
            (read_clough(dir)?, "clough-abc".to_string())
        }
    };
    if pairs.is_empty() {
        bail!("no training pairs");
    }
    if !pairs.iter().any(|p| is_copied(&p.label)) || pairs.iter().all(|p| is_copied(&p.label)) {
        bail!("training data must have both \"non\" and copied pairs");
    }
    let setup = args.model.setup(&pairs)?;
    let all: Vec<&Pair> = pairs.iter().collect();
    let (h, (cv_acc, cv_f1)) = select(&all, &setup, args.kernel.names())?;
    let (mut model, worst, _) = fit_calibrated(&all, &setup, h)?;
    model.provenance = serde_json::json!({
        "data": source,
        "pairs": pairs.len(),
        "classes": setup.classes,
        "features": args.model.features,
        "groups": pairs.iter().map(|p| p.group.clone()).collect::<BTreeSet<_>>(),
        "trainer": format!("linfa-svm 0.8 (SMO), C-SVC; graded: {}", match (setup.scheme, setup.grade_cuts) {
            (Scheme::OneVsRest, _) => "one-vs-rest SVMs",
            (Scheme::Ordinal, Some(_)) => "ordinal, cut points on word 3-shingle containment",
            (Scheme::Ordinal, None) => "ordinal SVMs, one per 'at least this grade' (Frank & Hall 2001)",
        }),
        "calibration": match (setup.calibrate, setup.grade_cuts) {
            (false, _) => "none",
            (true, None) => "Platt scaling on leave-one-group-out decision values",
            (true, Some(_)) => "Platt scaling: the binary SVM on leave-one-group-out decision values, the cut points on the training rows",
        },
        "ends": match model.ends {
            Some(_) => "beta calibration's end terms on word 3-shingle containment (Kull et al. 2017), anchored by each text against itself (highest grade) and against another task's source sharing no word 3-shingle (lowest grade); slopes from the labelled rows",
            None => "none",
        },
        "hyperparameters": h,
        "selection": "leave-one-group-out cross-validation: class accuracy, then binary F1",
        "cv_binary_f1": cv_f1,
        "cv_class_accuracy": cv_acc,
        "max_abs_difference_from_linfa": worst,
    });
    let json = model.to_json() + "\n";
    crate::input::write_atomic(&args.output, |w| w.write_all(json.as_bytes()))?;
    eprintln!(
        "neardup: trained on {} pairs: {} kernel, C = {}{}; cross-validated binary F1 {cv_f1:.3}, class accuracy {cv_acc:.3}; max |Δ| vs linfa {worst:.1e}; wrote {}",
        pairs.len(),
        h.kernel,
        h.c,
        h.gamma.map(|g| format!(", gamma = {g}")).unwrap_or_default(),
        args.output.display()
    );
    Ok(ExitCode::SUCCESS)
}
