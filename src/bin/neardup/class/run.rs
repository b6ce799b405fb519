//! `neardup class`, step 2: the class run in the core (`ClassRun::of_files`:
//! the class measure's pairs, the library's matches) and, when a CSV, JSON or
//! evidence pack is asked for, each listed pair's full comparison with the
//! shipped verdict model, as the page runs it.

use super::read::Inputs;
use super::ClassArgs;
use anyhow::Result;
use neardup::classset::run::ClassRun;
use neardup::classset::ClassSetConfig;

/// The class run of `inputs`, compared in full when the output needs it.
///
/// # Errors
/// A usage error (exit 2) when fewer than two texts, or no student's, were
/// read; the core's errors otherwise.
pub fn run(args: &ClassArgs, inputs: &Inputs, config: &ClassSetConfig) -> Result<ClassRun> {
    let (students, sources) = (inputs.students.texts.len(), inputs.sources.texts.len());
    let mut run = ClassRun::of_files(
        &inputs.students,
        &inputs.sources,
        &inputs.template,
        config,
        inputs.library.as_ref(),
    )
    .map_err(|e| {
        if students + sources < 2 || students == 0 {
            crate::usage(format!(
                "give at least two texts, one of them a student's \
                 ({students} students and {sources} sources read)"
            ))
        } else {
            crate::core(e)
        }
    })?;
    // The full comparison of each pair listed: its containments, verdict and
    // passages are what the CSV, the JSON and the evidence pack show.
    if args.csv || args.json || args.evidence.is_some() {
        let model = crate::compare::load_model(None)?;
        run.compare(&inputs.texts(), inputs.library.as_ref(), Some(&model));
        let names = inputs.names();
        for row in &run.rows {
            if let Some(e) = &row.error {
                eprintln!(
                    "neardup: the pair {} and {} could not be compared in full: {e}",
                    names.text(row.a),
                    names.b_of(row)
                );
            }
        }
    }
    Ok(run)
}
