//! `neardup train` (and the cross-validation behind `neardup eval --svm`):
//! the learned verdict. Similarity vectors of labelled pairs, feature
//! scaling, support vector machines fitted by `linfa-svm` (SMO),
//! hyper-parameters by cross-validation grouped by task, and export to the
//! model JSON that `neardup::verdict` evaluates (natively and in
//! WebAssembly) — read through linfa's public API and checked against
//! linfa's own decision values.

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use linfa::prelude::*;
use linfa::Dataset;
use linfa_svm::Svm;
use ndarray::{Array1, Array2};
use neardup::measures::classification::{at_threshold, best_f1};
use neardup::tfidf::DocumentFrequencies;
use neardup::verdict::{
    keyword_terms, Feature, Kernel, Machine, ModelFile, Platt, Scaler, Scheme, StoredDf, SvmModel,
    VectorSpec, MODEL_FORMAT,
};
use neardup::Document;
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The seed of the model's keyword hashes (the stored document frequencies).
const DF_SEED: u64 = 0;

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

/// How the model is built: its vector, its scheme, its calibration.
#[derive(Args, Clone)]
pub struct ModelArgs {
    /// The similarity vector's feature groups, comma-separated: base (the
    /// 13 of format 1: keywords, word 1–5 containment, word 3 and char 5
    /// resemblance, char 5 containment), reverse (word 1–5 containment of b
    /// in a), passages (longest, count, mean length, coverage by passages
    /// of ≥ 8 words), order (LCS, Greedy String Tiling), char (char 3 and 8
    /// containment), phonetic (SoundD word 3 containment); or all.
    #[arg(long, default_value = "all", value_name = "GROUPS")]
    pub features: String,
    /// How the graded classes are decided: one-vs-rest machines, or ordinal
    /// (Frank & Hall 2001: one machine per "at least this grade").
    #[arg(long, value_enum, default_value = "ordinal")]
    pub scheme: SchemeChoice,
    /// The grades, lowest first, for --scheme ordinal (default: non, heavy,
    /// light, cut when those are the labels).
    #[arg(long, value_delimiter = ',')]
    pub grades: Option<Vec<String>>,
    /// Do not calibrate the decision values (no probabilities; one-vs-rest
    /// only).
    #[arg(long)]
    pub no_calibration: bool,
    /// The feature groups the graded machines read (then linear machines),
    /// among those of --features, plus "containment" (word 1–5 containment,
    /// Clough & Stevenson's measures); default: all of --features, with the
    /// model's kernel.
    #[arg(long, value_name = "GROUPS")]
    pub graded_features: Option<String>,
    /// What decides the ordinal grades: cut points on the plagiarism score
    /// (word 3-shingle containment, which --features must include), chosen
    /// on the training pairs (the default for --scheme ordinal: nested
    /// cross-validation prefers it, EVALUATION.md), or SVMs, one per
    /// "at least this grade".
    #[arg(long, value_enum)]
    pub grades_by: Option<GradesBy>,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GradesBy {
    Cuts,
    Svm,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SchemeChoice {
    OneVsRest,
    Ordinal,
}

/// The features of a group named in --features.
pub fn feature_group(name: &str) -> Option<Vec<Feature>> {
    use Feature::*;
    Some(match name {
        "base" => VectorSpec::default().features,
        "reverse" => (1..=5).map(|n| WordContainmentOfB { n }).collect(),
        "passages" => vec![
            LongestPassage { k: 3 },
            PassageCount { k: 3 },
            MeanPassage { k: 3 },
            LongPassageCoverage { k: 3, min: 8 },
        ],
        "order" => vec![Lcs, Tiling { min: 5 }],
        "char" => vec![CharContainment { q: 3 }, CharContainment { q: 8 }],
        "phonetic" => vec![PhoneticContainment { n: 3 }],
        "containment" => (1..=5).map(|n| WordContainment { n }).collect(),
        _ => return None,
    })
}

/// Every group, in the order `all` stands for.
pub const FEATURE_GROUPS: [&str; 6] = ["base", "reverse", "passages", "order", "char", "phonetic"];

impl ModelArgs {
    /// The first option given away from its default, by name (for commands
    /// that would ignore them).
    pub fn given(&self) -> Option<&'static str> {
        [
            (self.features != "all", "--features"),
            (self.scheme != SchemeChoice::Ordinal, "--scheme"),
            (self.grades.is_some(), "--grades"),
            (self.no_calibration, "--no-calibration"),
            (self.graded_features.is_some(), "--graded-features"),
            (self.grades_by.is_some(), "--grades-by"),
        ]
        .into_iter()
        .find_map(|(given, name)| given.then_some(name))
    }

    /// The setup these options describe for training `pairs`.
    ///
    /// # Errors
    /// A usage error for an unknown feature group, grades that are not the
    /// labels, or an ordinal model without calibration.
    pub fn setup(&self, pairs: &[Pair]) -> Result<Setup> {
        let groups = |list: &str, option: &str| -> Result<Vec<Feature>> {
            let mut features = Vec::new();
            for name in list.split(',').map(str::trim) {
                let names: Vec<&str> = if name == "all" {
                    FEATURE_GROUPS.to_vec()
                } else {
                    vec![name]
                };
                for n in names {
                    let group = feature_group(n).ok_or_else(|| {
                        crate::usage(format!(
                            "{option}: unknown group {n:?} (expected all or some of {}, containment)",
                            FEATURE_GROUPS.join(", ")
                        ))
                    })?;
                    for f in group {
                        if !features.contains(&f) {
                            features.push(f);
                        }
                    }
                }
            }
            Ok(features)
        };
        let features = groups(&self.features, "--features")?;
        let graded_features = match &self.graded_features {
            None => None,
            Some(list) => Some(
                groups(list, "--graded-features")?
                    .iter()
                    .map(|f| {
                        features.iter().position(|g| g == f).ok_or_else(|| {
                            crate::usage(format!(
                                "--graded-features: {f:?} is not among --features {}",
                                self.features
                            ))
                        })
                    })
                    .collect::<Result<Vec<usize>>>()?,
            ),
        };
        let spec = VectorSpec {
            keywords: 20,
            features,
        };
        spec.check().map_err(crate::core)?;
        let labels = classes_of(pairs);
        let (scheme, classes) = match self.scheme {
            SchemeChoice::OneVsRest => (Scheme::OneVsRest, labels),
            SchemeChoice::Ordinal => {
                let grades: Vec<String> = match &self.grades {
                    Some(g) => g.clone(),
                    None => CLOUGH_GRADES.iter().map(|g| g.to_string()).collect(),
                };
                let mut sorted = grades.clone();
                sorted.sort();
                if sorted != labels {
                    return Err(crate::usage(format!(
                        "--grades {} must list every label once, lowest grade first (labels: {})",
                        grades.join(","),
                        labels.join(",")
                    )));
                }
                (Scheme::Ordinal, grades)
            }
        };
        if self.no_calibration && scheme == Scheme::Ordinal {
            return Err(crate::usage(
                "--no-calibration: the ordinal scheme needs calibrated probabilities",
            ));
        }
        let cuts = match (self.grades_by, scheme) {
            (Some(GradesBy::Cuts), Scheme::OneVsRest) => {
                return Err(crate::usage("--grades-by cuts needs --scheme ordinal"))
            }
            (Some(GradesBy::Cuts), _) if self.graded_features.is_some() => {
                return Err(crate::usage(
                    "--graded-features: the grades are cut points on the score; use --grades-by svm",
                ))
            }
            (Some(by), _) => by == GradesBy::Cuts,
            (None, Scheme::Ordinal) => self.graded_features.is_none(),
            (None, Scheme::OneVsRest) => false,
        };
        let grade_cuts =
            if cuts {
                let score = Feature::WordContainment { n: 3 };
                Some(spec.features.iter().position(|f| *f == score).ok_or_else(|| {
                crate::usage("--grades-by cuts: --features must include word 3 containment (base)")
            })?)
            } else {
                None
            };
        Ok(Setup {
            grade_cuts,
            spec,
            scheme,
            classes,
            calibrate: !self.no_calibration,
            graded_features,
        })
    }
}

#[derive(Clone, Copy, clap::ValueEnum)]
pub enum KernelChoice {
    Linear,
    Rbf,
    Both,
}

impl KernelChoice {
    pub fn names(self) -> &'static [&'static str] {
        match self {
            KernelChoice::Linear => &["linear"],
            KernelChoice::Rbf => &["rbf"],
            KernelChoice::Both => &["linear", "rbf"],
        }
    }
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
        });
    }
    Ok(out)
}

/// The documents of a pair, normalised once (with the model's seed).
fn documents(p: &Pair) -> (Document, Document) {
    (Document::new(&p.a, DF_SEED), Document::new(&p.b, DF_SEED))
}

/// Document frequencies over the distinct texts of `pairs` (keyword terms).
fn fit_df(pairs: &[&Pair]) -> DocumentFrequencies {
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

/// Hyper-parameters of one fit.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Hyper {
    pub kernel: &'static str,
    pub c: f64,
    pub gamma: Option<f64>,
}

pub fn grid(kernels: &[&str]) -> Vec<Hyper> {
    let mut g = Vec::new();
    for &c in &[0.1, 1.0, 10.0, 100.0] {
        if kernels.contains(&"linear") {
            g.push(Hyper {
                kernel: "linear",
                c,
                gamma: None,
            });
        }
        if kernels.contains(&"rbf") {
            for &gamma in &[0.01, 0.03, 0.1, 0.3] {
                g.push(Hyper {
                    kernel: "rbf",
                    c,
                    gamma: Some(gamma),
                });
            }
        }
    }
    g
}

/// Fits one binary machine with linfa and exports it through linfa's public
/// API: a linear machine's hyperplane `w` is read by evaluating the fitted
/// model on each unit vector (`w_j = weighted_sum(e_j)`, exact); a kernel
/// machine's support vectors are the training rows with a non-zero signed
/// dual coefficient `alpha` (the filter of linfa's `weighted_sum`). The
/// export is checked against linfa's decision values on every training row
/// (to 1e-9).
fn fit_machine(z: &[Vec<f64>], y: &[bool], h: Hyper, positive: &str) -> Result<(Machine, f64)> {
    if y.iter().all(|&t| t) || y.iter().all(|&t| !t) {
        bail!("training data for {positive:?} has one class only");
    }
    let d = z[0].len();
    let records = Array2::from_shape_vec((z.len(), d), z.iter().flatten().copied().collect())?;
    let ds = Dataset::new(records.clone(), Array1::from(y.to_vec()));
    let params = Svm::<f64, bool>::params().pos_neg_weights(h.c, h.c);
    let params = match h.gamma {
        Some(g) => params.gaussian_kernel(1.0 / g),
        None => params.linear_kernel(),
    };
    let model = params
        .fit(&ds)
        .map_err(|e| anyhow!("SVM training failed: {e}"))?;
    let (support_vectors, dual_coef) = match h.gamma {
        None => {
            let w: Vec<f64> = (0..d)
                .map(|j| {
                    let mut e = Array1::zeros(d);
                    e[j] = 1.0;
                    model.weighted_sum(&e)
                })
                .collect();
            (vec![w], vec![1.0])
        }
        Some(_) => z
            .iter()
            .zip(&model.alpha)
            .filter(|(_, a)| a.abs() > 100.0 * f64::EPSILON)
            .map(|(row, &a)| (row.clone(), a))
            .unzip(),
    };
    let machine = Machine {
        positive: positive.into(),
        support_vectors,
        dual_coef,
        bias: -model.rho,
        kernel: None,
    };
    // Agreement with linfa, on the scaled rows.
    let kernel = match h.gamma {
        Some(g) => Kernel::Rbf { gamma: g },
        None => Kernel::Linear,
    };
    let mut worst: f64 = 0.0;
    for (i, row) in records.outer_iter().enumerate() {
        let lib = model.weighted_sum(&row) - model.rho;
        let ours = machine.decision(&kernel, &z[i]);
        worst = worst.max((lib - ours).abs());
    }
    if worst > 1e-9 {
        bail!("exported model differs from linfa by {worst:e}");
    }
    Ok((machine, worst))
}

/// What a model is made of besides its hyper-parameters: the similarity
/// vector, how the graded classes decide, and whether decision values are
/// calibrated into probabilities (Platt scaling on cross-validated decision
/// values).
#[derive(Clone, Debug)]
pub struct Setup {
    pub spec: VectorSpec,
    pub scheme: Scheme,
    /// Ordinal: the grades, lowest first. One-vs-rest: the classes.
    pub classes: Vec<String>,
    pub calibrate: bool,
    /// The components the graded machines read (indices into the vector):
    /// those machines are then linear, trained with the other components
    /// set to 0, so their weights there are exactly 0. `None`: every
    /// component, with the model's kernel.
    pub graded_features: Option<Vec<usize>>,
    /// Ordinal only: the grade machines are cut points on one component
    /// (its index): `g_k(z) = z_j − t_k`, the cut points `t_k` those right
    /// on the most training pairs ([`grade_cuts`]). A cumulative threshold
    /// model on one score (McCullagh 1980's proportional odds without the
    /// link; here calibrated per cut by Platt scaling).
    pub grade_cuts: Option<usize>,
}

impl Setup {
    /// The names of the graded-class machines.
    fn machines(&self) -> &[String] {
        match self.scheme {
            Scheme::OneVsRest => &self.classes,
            Scheme::Ordinal => &self.classes[1..],
        }
    }

    /// Whether `label` is on the positive side of graded machine `k`.
    fn positive(&self, k: usize, label: &str) -> bool {
        match self.scheme {
            Scheme::OneVsRest => self.classes[k] == label,
            Scheme::Ordinal => self
                .classes
                .iter()
                .position(|c| c == label)
                .is_some_and(|rank| rank > k),
        }
    }

    /// The label of every machine, binary first, for each pair.
    fn targets(&self, pairs: &[&Pair]) -> Vec<Vec<bool>> {
        let mut t = vec![pairs
            .iter()
            .map(|p| is_copied(&p.label))
            .collect::<Vec<_>>()];
        for k in 0..self.machines().len() {
            t.push(pairs.iter().map(|p| self.positive(k, &p.label)).collect());
        }
        t
    }
}

/// A fitted verdict model (uncalibrated) and its largest difference from
/// linfa.
pub fn fit(pairs: &[&Pair], setup: &Setup, h: Hyper) -> Result<(ModelFile, f64)> {
    let spec = &setup.spec;
    let df = fit_df(pairs);
    let xs: Vec<Vec<f64>> = pairs
        .iter()
        .map(|p| {
            let (a, b) = documents(p);
            spec.vector(&a, &b, &df, DF_SEED)
        })
        .collect();
    let scaler = Scaler::fit(&xs);
    let z: Vec<Vec<f64>> = xs.iter().map(|x| scaler.apply(x)).collect();
    let targets = setup.targets(pairs);
    let (binary, mut worst) = fit_machine(&z, &targets[0], h, "copied")?;
    let mut machines = Vec::new();
    if let Some(j) = setup.grade_cuts {
        let values: Vec<f64> = z.iter().map(|row| row[j]).collect();
        let ranks: Vec<usize> = pairs
            .iter()
            .map(|p| {
                setup
                    .classes
                    .iter()
                    .position(|c| *c == p.label)
                    .unwrap_or(0)
            })
            .collect();
        let (lo, hi) = values
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
                (a.min(v), b.max(v))
            });
        let cuts = grade_cuts(&values, &ranks, setup.classes.len() - 1);
        let mut unit = vec![0.0; z[0].len()];
        unit[j] = 1.0;
        for (name, t) in setup.machines().iter().zip(cuts) {
            machines.push(Machine {
                positive: name.clone(),
                support_vectors: vec![unit.clone()],
                dual_coef: vec![1.0],
                bias: -t.clamp(lo - 1.0, hi + 1.0),
                kernel: Some(Kernel::Linear),
            });
        }
    } else {
        // The graded machines' rows: only their components, and a linear kernel.
        let (zg, hg) = match &setup.graded_features {
            Some(keep) => (
                z.iter()
                    .map(|row| {
                        row.iter()
                            .enumerate()
                            .map(|(j, &v)| if keep.contains(&j) { v } else { 0.0 })
                            .collect()
                    })
                    .collect(),
                Hyper {
                    kernel: "linear",
                    c: h.c,
                    gamma: None,
                },
            ),
            None => (z.clone(), h),
        };
        for (name, y) in setup.machines().iter().zip(&targets[1..]) {
            let (mut m, w) = fit_machine(&zg, y, hg, name)?;
            if hg != h {
                m.kernel = Some(Kernel::Linear);
            }
            worst = worst.max(w);
            machines.push(m);
        }
    }
    let model = ModelFile {
        format: MODEL_FORMAT,
        vector: spec.clone(),
        df: StoredDf {
            documents: df.documents(),
            terms: df
                .counts()
                .into_iter()
                .map(|(h, n)| (format!("{h:016x}"), n))
                .collect(),
            seed: DF_SEED,
        },
        scaler,
        kernel: match h.gamma {
            Some(g) => Kernel::Rbf { gamma: g },
            None => Kernel::Linear,
        },
        binary,
        classes: machines,
        scheme: setup.scheme,
        grades: match setup.scheme {
            Scheme::Ordinal => setup.classes.clone(),
            Scheme::OneVsRest => Vec::new(),
        },
        calibration: Vec::new(),
        provenance: serde_json::Value::Null,
    };
    Ok((model, worst))
}

/// A fitted model, calibrated (when the setup asks) by Platt scaling: SVMs
/// on the decision values of leave-one-group-out cross-validation over
/// `pairs` (Platt 1999: never on the rows a machine trained on), cut points
/// on the training rows. Also returns the largest difference from linfa and
/// the cross-validated decision values.
pub fn fit_calibrated(
    pairs: &[&Pair],
    setup: &Setup,
    h: Hyper,
) -> Result<(ModelFile, f64, Vec<Vec<f64>>)> {
    let (mut model, worst) = fit(pairs, setup, h)?;
    let held_out = cv_decisions(pairs, setup, h)?;
    if setup.calibrate {
        let targets = setup.targets(pairs);
        // Cut points on the score are calibrated on the training rows'
        // own values: one number fitted per machine, where an SVM's margins
        // on its training rows are pushed out to ±1 and must be held out
        // (Platt 1999). Nested cross-validation prefers it (Brier 0.466
        // against 0.488, EVALUATION.md).
        let own = match setup.grade_cuts {
            Some(_) => {
                let plain = decisions_only(model.clone())?;
                pairs
                    .iter()
                    .map(|p| {
                        let (a, b) = documents(p);
                        plain
                            .decision_function(&plain.similarity_vector(&a, &b))
                            .map_err(crate::core)
                    })
                    .collect::<Result<Vec<_>>>()?
            }
            None => held_out.clone(),
        };
        model.calibration = targets
            .iter()
            .enumerate()
            .map(|(m, y)| {
                let values = if m == 0 { &held_out } else { &own };
                let f: Vec<f64> = values.iter().map(|d| d[m]).collect();
                Platt::fit(&f, y).map_err(crate::core)
            })
            .collect::<Result<_>>()?;
    }
    model.check().map_err(crate::core)?;
    Ok((model, worst, held_out))
}

/// An uncalibrated model loaded only to read its machines' decision values:
/// without the ordinal reading, which needs the calibration that is fitted
/// from those values.
fn decisions_only(mut model: ModelFile) -> Result<SvmModel> {
    model.scheme = Scheme::OneVsRest;
    model.grades.clear();
    SvmModel::new(model).map_err(crate::core)
}

/// Decision values (binary, then each graded machine) of every pair by a
/// model that did not see its group: leave-one-group-out.
fn cv_decisions(pairs: &[&Pair], setup: &Setup, h: Hyper) -> Result<Vec<Vec<f64>>> {
    let gs = groups(pairs);
    if gs.len() < 2 {
        bail!("cross-validation needs at least two groups (tasks)");
    }
    let mut out = vec![Vec::new(); pairs.len()];
    for g in &gs {
        let train: Vec<&Pair> = pairs.iter().copied().filter(|p| &p.group != g).collect();
        let model = decisions_only(fit(&train, setup, h)?.0)?;
        for (i, p) in pairs.iter().enumerate().filter(|(_, p)| &p.group == g) {
            let (a, b) = documents(p);
            out[i] = model
                .decision_function(&model.similarity_vector(&a, &b))
                .map_err(crate::core)?;
        }
    }
    Ok(out)
}

fn groups(pairs: &[&Pair]) -> Vec<String> {
    pairs
        .iter()
        .map(|p| p.group.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// Cross-validated score of hyper-parameters over `pairs` by leaving one
/// group out: (class accuracy, binary F1), the classes read through the
/// model's calibration fitted on the same held-out decision values.
fn cv_score(pairs: &[&Pair], setup: &Setup, h: Hyper) -> Result<(f64, f64)> {
    let (model, _, held_out) = fit_calibrated(pairs, setup, h)?;
    let model = SvmModel::new(model).map_err(crate::core)?;
    let (mut dec, mut truth, mut right) = (Vec::new(), Vec::new(), 0usize);
    for (p, d) in pairs.iter().zip(&held_out) {
        let v = model.verdict_of(d, &[]).map_err(crate::core)?;
        dec.push(d[0]);
        truth.push(is_copied(&p.label));
        right += usize::from(v.class.as_deref() == Some(p.label.as_str()));
    }
    let f1 = at_threshold(&dec, &truth, 0.0).f1;
    Ok((right as f64 / pairs.len() as f64, f1))
}

/// The best hyper-parameters by grouped cross-validation: the higher class
/// accuracy, then the higher binary F1, then the earlier grid entry (a
/// binary-only setup: binary F1 alone).
pub fn select(pairs: &[&Pair], setup: &Setup, kernels: &[&str]) -> Result<(Hyper, (f64, f64))> {
    let mut best: Option<(Hyper, (f64, f64))> = None;
    for h in grid(kernels) {
        // A setting that cannot be fitted (a machine with one class in a
        // fold) is left out of the search.
        let Ok(s) = cv_score(pairs, setup, h) else {
            continue;
        };
        if best.as_ref().is_none_or(|(_, b)| {
            s.0 > b.0 + 1e-12 || ((s.0 - b.0).abs() <= 1e-12 && s.1 > b.1 + 1e-12)
        }) {
            best = Some((h, s));
        }
    }
    best.ok_or_else(|| {
        anyhow!("no hyper-parameters could be fitted (too little or one-class data?)")
    })
}

pub fn classes_of(pairs: &[Pair]) -> Vec<String> {
    pairs
        .iter()
        .map(|p| p.label.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// Nested leave-one-group-out evaluation: for each held-out group, select
/// hyper-parameters by cross-validation on the other groups, fit and
/// calibrate on them, predict the held-out group. Also the baseline: the
/// plagiarism score (containment of word 3-shingles) with one threshold
/// (binary) and, for ordered grades, one cut point per grade, each chosen
/// on the training groups.
pub struct Outer {
    pub decisions: Vec<f64>,
    pub predicted: Vec<String>,
    /// Per pair, each class with its probability (empty when uncalibrated).
    pub probabilities: Vec<Vec<(String, f64)>>,
    pub copied_probability: Vec<Option<f64>>,
    pub between: Vec<Option<(String, String)>>,
    pub baseline_scores: Vec<f64>,
    pub baseline_predicted: Vec<bool>,
    /// The baseline's grade of each pair (with `grades` only).
    pub baseline_graded: Vec<String>,
    pub chosen: BTreeMap<String, Hyper>,
}

/// The grades of the Clough–Stevenson corpus, lowest first.
pub const CLOUGH_GRADES: [&str; 4] = ["non", "heavy", "light", "cut"];

/// Cut points `t_1 ≤ … ≤ t_K` on `scores` giving grade `k` to a score in
/// `[t_k, t_{k+1})` that are right on the most `ranks` (grades 0..=K); each
/// a midpoint between two distinct scores, or ±∞. Of several best, the
/// smallest cuts (lexicographically). Dynamic programming over the sorted
/// distinct scores: O(K·n + n log n) for n scores.
pub fn grade_cuts(scores: &[f64], ranks: &[usize], k: usize) -> Vec<f64> {
    let mut v: Vec<f64> = scores.to_vec();
    v.sort_by(f64::total_cmp);
    v.dedup();
    let d = v.len();
    // Candidate i (0..=d): −∞, the midpoints, +∞; a score of index j is at
    // or above candidate i exactly when j ≥ i.
    let cand = |i: usize| match i {
        0 => f64::NEG_INFINITY,
        i if i == d => f64::INFINITY,
        i => (v[i - 1] + v[i]) / 2.0,
    };
    // prefix[r][i]: pairs of rank r whose score index is below i.
    let mut prefix = vec![vec![0usize; d + 1]; k + 1];
    for (&x, &r) in scores.iter().zip(ranks) {
        if r <= k {
            let j = v.partition_point(|&y| y < x);
            prefix[r][j + 1] += 1;
        }
    }
    for row in &mut prefix {
        for i in 1..=d {
            row[i] += row[i - 1];
        }
    }
    // best[g][i]: the most pairs of grades g..=k right when grade g starts
    // at candidate i (grade k runs to the end).
    let mut best = vec![vec![0usize; d + 1]; k + 1];
    for i in 0..=d {
        best[k][i] = prefix[k][d] - prefix[k][i];
    }
    for g in (1..k).rev() {
        let mut reach = 0usize; // max over j ≥ i of prefix[g][j] + best[g + 1][j]
        for i in (0..=d).rev() {
            reach = reach.max(prefix[g][i] + best[g + 1][i]);
            best[g][i] = reach - prefix[g][i];
        }
    }
    // Grade 0 runs from the start: choose each cut as the smallest that
    // keeps the optimum.
    let mut cuts = Vec::with_capacity(k);
    let (mut from, mut target) = (0, usize::MAX);
    for g in 0..k {
        // The pairs right from grade g on, when grade g + 1 starts at j.
        let total = |j: usize| prefix[g][j] - prefix[g][from] + best[g + 1][j];
        if g == 0 {
            target = (0..=d).map(total).max().unwrap_or(0);
        }
        let j = (from..=d).find(|&j| total(j) == target).unwrap_or(d);
        target -= prefix[g][j] - prefix[g][from];
        cuts.push(cand(j));
        from = j;
    }
    cuts
}

pub fn nested_cv(pairs: &[Pair], setup: &Setup, kernels: &[&str]) -> Result<Outer> {
    let all: Vec<&Pair> = pairs.iter().collect();
    let gs = groups(&all);
    if gs.len() < 3 {
        bail!("nested cross-validation needs at least three groups (tasks)");
    }
    let n = pairs.len();
    let mut out = Outer {
        decisions: vec![0.0; n],
        predicted: vec![String::new(); n],
        probabilities: vec![Vec::new(); n],
        copied_probability: vec![None; n],
        between: vec![None; n],
        baseline_scores: vec![0.0; n],
        baseline_predicted: vec![false; n],
        baseline_graded: vec![String::new(); n],
        chosen: BTreeMap::new(),
    };
    let score = |p: &Pair| {
        neardup::compare(&p.a, &p.b, &neardup::CompareConfig::default())
            .map(|r| r.measures.score)
            .unwrap_or(0.0)
    };
    let rank = |label: &str| CLOUGH_GRADES.iter().position(|g| *g == label);
    let graded = pairs.iter().all(|p| rank(&p.label).is_some());
    for g in &gs {
        let train: Vec<&Pair> = all.iter().copied().filter(|p| &p.group != g).collect();
        let (h, _) = select(&train, setup, kernels)?;
        out.chosen.insert(g.clone(), h);
        let (model, _, _) = fit_calibrated(&train, setup, h)?;
        let model = SvmModel::new(model).map_err(crate::core)?;
        let train_scores: Vec<f64> = train.iter().map(|p| score(p)).collect();
        let train_truth: Vec<bool> = train.iter().map(|p| is_copied(&p.label)).collect();
        let threshold = best_f1(&train_scores, &train_truth).map_or(0.5, |b| b.threshold);
        let cuts = if graded {
            let ranks: Vec<usize> = train.iter().filter_map(|p| rank(&p.label)).collect();
            grade_cuts(&train_scores, &ranks, CLOUGH_GRADES.len() - 1)
        } else {
            Vec::new()
        };
        for (i, p) in pairs.iter().enumerate().filter(|(_, p)| &p.group == g) {
            let (a, b) = documents(p);
            let v = model.judge(&a, &b).map_err(crate::core)?;
            out.decisions[i] = v.binary_decision;
            out.predicted[i] = v.class.unwrap_or_default();
            out.probabilities[i] = v.probabilities;
            out.copied_probability[i] = v.copied_probability;
            out.between[i] = v.between;
            out.baseline_scores[i] = score(p);
            out.baseline_predicted[i] = out.baseline_scores[i] >= threshold;
            if graded {
                let r = cuts
                    .iter()
                    .filter(|&&t| out.baseline_scores[i] >= t)
                    .count();
                out.baseline_graded[i] = CLOUGH_GRADES[r].to_string();
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::grade_cuts;

    /// Every ordered choice of candidate cuts, the first best kept: the
    /// specification `grade_cuts` must equal.
    fn exhaustive(scores: &[f64], ranks: &[usize], k: usize) -> Vec<f64> {
        let mut v = scores.to_vec();
        v.sort_by(f64::total_cmp);
        v.dedup();
        let mut cands = vec![f64::NEG_INFINITY];
        cands.extend(v.windows(2).map(|w| (w[0] + w[1]) / 2.0));
        cands.push(f64::INFINITY);
        let right = |cuts: &[f64]| {
            scores
                .iter()
                .zip(ranks)
                .filter(|&(&x, &r)| cuts.iter().filter(|&&t| x >= t).count() == r)
                .count()
        };
        let mut best: Option<(usize, Vec<f64>)> = None;
        let mut idx = vec![0usize; k];
        loop {
            let cuts: Vec<f64> = idx.iter().map(|&i| cands[i]).collect();
            let r = right(&cuts);
            if best.as_ref().is_none_or(|b| r > b.0) {
                best = Some((r, cuts));
            }
            // Next non-decreasing index tuple.
            let mut p = k;
            while p > 0 && idx[p - 1] == cands.len() - 1 {
                p -= 1;
            }
            if p == 0 {
                return best.unwrap().1;
            }
            idx[p - 1] += 1;
            for q in p..k {
                idx[q] = idx[p - 1];
            }
        }
    }

    #[test]
    fn the_cuts_right_on_the_most_pairs_as_an_exhaustive_search_finds_them() {
        // By hand: scores 0.1, 0.2 (grade 0), 0.5 (1), 0.9 (2): cuts at the
        // midpoints 0.35 and 0.7.
        assert_eq!(
            grade_cuts(&[0.1, 0.2, 0.5, 0.9], &[0, 0, 1, 2], 2),
            [0.35, 0.7]
        );
        // Pseudo-random cases with ties and overlapping grades.
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        for case in 0..200 {
            let n = 1 + (case % 12) as usize;
            let k = 1 + (case % 3) as usize;
            let scores: Vec<f64> = (0..n).map(|_| next(8) as f64 / 8.0).collect();
            let ranks: Vec<usize> = scores
                .iter()
                .map(|&s| ((s * (k as f64 + 1.0)) as usize + next(2) as usize).min(k))
                .collect();
            assert_eq!(
                grade_cuts(&scores, &ranks, k),
                exhaustive(&scores, &ranks, k),
                "{scores:?} {ranks:?} k {k}"
            );
        }
    }
}
