//! How the tool's errors reach the user (ripgrep's way: `anyhow` at the
//! edge): a message on standard error and an exit status — 0 on success, 1
//! for bad input, 2 for a usage error ([`Usage`]: an option out of range,
//! options that do not go together; clap's own usage errors exit 2 too), 0
//! when the reader of standard output went away (`neardup … | head`).

use std::process::ExitCode;

/// The exit status of a command's result, its error (if any) printed as
/// `neardup: message: cause: …`.
pub(crate) fn exit_code(result: anyhow::Result<ExitCode>) -> ExitCode {
    match result {
        Ok(code) => code,
        // The reader went away (`neardup … | head`): not an error.
        Err(e)
            if e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) =>
        {
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("neardup: {e:#}");
            // Options that are wrong or do not go together are usage errors.
            let usage = e.chain().any(|c| c.downcast_ref::<Usage>().is_some());
            ExitCode::from(if usage { 2 } else { 1 })
        }
    }
}

/// A usage error: an option out of range, or options that do not go
/// together. The tool exits with status 2 for it (clap's own usage errors
/// do too), 1 for bad input.
#[derive(Debug)]
pub(crate) struct Usage(pub String);

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// A [`Usage`] error with `msg`.
pub(crate) fn usage(msg: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(Usage(msg.into()))
}

/// A core error with option names as this tool's flags (`word_k` →
/// `--word-k`).
pub(crate) fn core(e: neardup::Error) -> anyhow::Error {
    let msg = e.message_with(|name| match name {
        "k" | "max_k" => "-k".into(),
        _ => format!("--{}", name.replace('_', "-")),
    });
    // An option out of range is a usage error (exit 2).
    match e.kind() {
        neardup::ErrorKind::InvalidOption { .. } => usage(msg),
        _ => anyhow::anyhow!(msg),
    }
}
