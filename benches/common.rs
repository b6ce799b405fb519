//! Helpers shared by the one-shot scale benchmarks.

/// Resident set size of this process in bytes (Linux `/proc/self/statm`;
/// 0 where it cannot be read).
pub fn rss_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    pages * 4096
}

/// The sizes given on the command line (`cargo bench --bench X -- N …`), or
/// `default` when none is.
pub fn sizes(default: &[usize]) -> Vec<usize> {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    if sizes.is_empty() {
        default.to_vec()
    } else {
        sizes
    }
}
