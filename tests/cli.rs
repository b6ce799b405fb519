//! The command-line tool, run as a process.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn neardup(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_neardup"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run neardup");
    if let Some(input) = stdin {
        child.stdin.take().unwrap().write_all(input).unwrap();
    } else {
        drop(child.stdin.take());
    }
    child.wait_with_output().unwrap()
}

/// The JSON lines of a successful run.
fn json_lines(out: &Output) -> Vec<serde_json::Value> {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    lines_of(out)
}

/// The JSON lines a run wrote.
fn lines_of(out: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn tmp(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("neardup-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

#[test]
fn compare_two_files_as_json() {
    let a = tmp(
        "a.txt",
        "He wrote: the quick brown fox jumps over the dog.".as_bytes(),
    );
    let b = tmp(
        "b.txt",
        "The quick brown fox jumps over the lazy dog.".as_bytes(),
    );
    let out = neardup(
        &[
            "compare",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            "--json",
        ],
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["offsets"], "utf8-bytes");
    let score = v["score"].as_f64().unwrap();
    assert!(score > 0.5 && score < 1.0, "{v}");
    assert_eq!(v["passages"][0]["b"]["start"], 0);
}

#[test]
fn windows_1252_is_decoded_and_said() {
    // "café naïve résumé" in Windows-1252: é = 0xE9, ï = 0xEF.
    let a = tmp("w1252.txt", b"caf\xe9 na\xefve r\xe9sum\xe9 text");
    let b = tmp("utf8.txt", "café naïve résumé text".as_bytes());
    let out = neardup(
        &[
            "compare",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            "--json",
        ],
        None,
    );
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("decoded as Windows-1252"), "{stderr}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["score"], 1.0);
}

#[test]
fn pairs_report_bad_lines_by_number_and_keep_good_ones() {
    let input = concat!(
        "{\"id\": 1, \"a\": \"the quick brown fox\", \"b\": \"the quick brown fox jumps\"}\n",
        "{\"id\": 2, \"a\": \"missing b\"}\n",
        "not json at all\n",
        "\n",
        "{\"id\": \"x\", \"a\": \"   \", \"b\": \"text\"}\n",
        "{\"id\": [5], \"a\": \"one two three\", \"b\": \"four five six\"}\n",
    );
    let mut bytes = input.as_bytes().to_vec();
    bytes.extend_from_slice(b"{\"id\": 7, \"a\": \"\xff\xfe\", \"b\": \"x\"}\n");
    let out = neardup(&["compare", "--pairs", "-"], Some(&bytes));
    assert_eq!(out.status.code(), Some(1));
    let lines = lines_of(&out);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["id"], 1);
    assert_eq!(lines[0]["score"], 1.0);
    assert_eq!(lines[1]["id"], serde_json::json!([5]));
    assert_eq!(lines[1]["score"], 0.0);
    let err = String::from_utf8_lossy(&out.stderr);
    for want in [
        "line 2: not a",
        "line 3: not a",
        "line 5: text a has no words",
        "line 7: not valid UTF-8",
        "4 line(s) failed",
    ] {
        assert!(err.contains(want), "missing {want:?} in {err}");
    }
}

#[test]
fn missing_file_is_a_clear_error() {
    let out = neardup(
        &["compare", "/nonexistent/a.txt", "/nonexistent/b.txt"],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read /nonexistent/a.txt"));
}

/// The plagiarism score on the real, labelled Clough–Stevenson pairs: it
/// must separate copied answers from independent ones.
#[test]
fn eval_on_clough_separates_copied_from_independent() {
    let dir = crate::util::data_dir().join("clough-abc");
    let out = neardup(&["eval", "--clough", dir.to_str().unwrap(), "--json"], None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["pairs"], 57);
    let auc = v["roc_auc"].as_f64().unwrap();
    assert!(auc >= 0.9, "ROC AUC {auc}");
    let mean = |c: &str| v["categories"][c]["mean_score"].as_f64().unwrap();
    assert!(mean("cut") > mean("heavy"));
    assert!(mean("light") > mean("heavy"));
    assert!(mean("heavy") > 2.0 * mean("non"));
    assert!(mean("non") < 0.1);
}

#[test]
fn dedup_finds_planted_pairs_in_a_folder_and_reports_precision_recall() {
    let dir = std::env::temp_dir().join(format!("neardup-dedup-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let base = "the permuted block index finds every fingerprint within a small hamming distance of a query by sorting tables";
    let texts = [
        ("orig", base.to_string()),
        ("copy", base.replace("small", "tiny")),
        (
            "other",
            "a completely different text about gardens, rain and the smell of soil in spring"
                .to_string(),
        ),
        (
            "other2",
            "yet another unrelated note: buy milk, eggs, bread and coffee before friday evening"
                .to_string(),
        ),
    ];
    for (id, t) in &texts {
        std::fs::write(dir.join(format!("{id}.txt")), t).unwrap();
    }
    let truth = tmp("truth.tsv", b"id_a\tid_b\tedit_rate\norig\tcopy\t0.05\n");
    let out = neardup(
        &[
            "dedup",
            dir.to_str().unwrap(),
            "--threshold",
            "0.5",
            "--shingle",
            "word:3",
            "--truth",
            truth.to_str().unwrap(),
        ],
        None,
    );
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(
        (lines[0]["a"].as_str(), lines[0]["b"].as_str()),
        (Some("copy"), Some("orig"))
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("precision 1.000, recall 1.000"), "{err}");
    // Exact all-pairs and clusters agree.
    let out = neardup(
        &[
            "dedup",
            dir.to_str().unwrap(),
            "--method",
            "exact",
            "--shingle",
            "word:3",
            "--clusters",
        ],
        None,
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        r#"{"cluster":["copy","orig"]}"#
    );
}

#[test]
fn dedup_explain_and_bad_input() {
    let out = neardup(&["dedup", "--explain", "--threshold", "0.5"], None);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("bands 25") && text.contains("values used 128"),
        "{text}"
    );
    let bad = tmp(
        "bad.jsonl",
        b"{\"id\": \"a\", \"text\": \"x\"}\n{\"id\": \"a\", \"text\": \"y\"}\n",
    );
    let out = neardup(&["dedup", bad.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("duplicate id \"a\""));
    let out = neardup(
        &["dedup", bad.to_str().unwrap(), "--threshold", "1.5"],
        None,
    );
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("invalid option --threshold: must be in (0, 1), got 1.5"));
    let out = neardup(
        &["dedup", bad.to_str().unwrap(), "--shingle", "words"],
        None,
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("must be word:K, char:Q"));
}

#[test]
fn simhash_dedup_and_saved_index_find_the_copy() {
    let dir = std::env::temp_dir().join(format!("neardup-simhash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let base = "Near-duplicate detection for web crawling uses sixty-four bit fingerprints and tables \
                sorted by permuted prefixes, so that every fingerprint within three bits of a query is found \
                without scanning the whole collection of billions of pages on the web.";
    let docs = format!(
        "{}\n{}\n{}\n",
        serde_json::json!({"id": "orig", "text": base}),
        serde_json::json!({"id": "copy", "text": base.replace("billions", "millions")}),
        serde_json::json!({"id": "other", "text": "Gardening notes: water the tomatoes early, before the heat of the day, and mulch them."}),
    );
    let input = tmp("sim-docs.jsonl", docs.as_bytes());
    let out = neardup(
        &[
            "dedup",
            input.to_str().unwrap(),
            "--method",
            "simhash",
            "--shingle",
            "char:5",
            "-k",
            "8",
        ],
        None,
    );
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0]["a"], "copy");
    assert!(lines[0]["distance"].as_u64().unwrap() <= 8);

    let idx = dir.join("idx.bin");
    for method in ["simhash", "minhash"] {
        let out = neardup(
            &[
                "index",
                "build",
                input.to_str().unwrap(),
                "-o",
                idx.to_str().unwrap(),
                "--method",
                method,
                "--shingle",
                "char:5",
                "-k",
                "8",
            ],
            None,
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let q = tmp(
            "q.jsonl",
            format!("{}\n", serde_json::json!({"id": "q", "text": base})).as_bytes(),
        );
        let out = neardup(
            &["index", "query", idx.to_str().unwrap(), q.to_str().unwrap()],
            None,
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let ids: Vec<&str> = v["matches"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["id"].as_str().unwrap())
            .collect();
        assert!(
            ids.contains(&"orig") && ids.contains(&"copy") && !ids.contains(&"other"),
            "{method}: {v}"
        );
    }
    // A damaged index file is refused with a clear message.
    let mut bytes = std::fs::read(&idx).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0xff;
    std::fs::write(&idx, &bytes).unwrap();
    let out = neardup(
        &[
            "index",
            "query",
            idx.to_str().unwrap(),
            input.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("checksum mismatch"));
}

/// `neardup train` on the real labelled pairs: the exported model equals
/// linfa's decision values to 1e-9 (checked by the trainer and recorded in
/// the provenance), loads in the core, and judges a copied answer as reuse.
#[test]
fn train_exports_a_model_equal_to_linfa_and_eval_reports_cross_validation() {
    let dir = crate::util::data_dir().join("clough-abc");
    let model_path =
        std::env::temp_dir().join(format!("neardup-model-{}.json", std::process::id()));
    let out = neardup(
        &[
            "train",
            "--clough",
            dir.to_str().unwrap(),
            "-o",
            model_path.to_str().unwrap(),
            "--kernel",
            "rbf",
        ],
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&model_path).unwrap();
    let model = neardup::verdict::SvmModel::from_json(&text).expect("model loads");
    let diff = model.file().provenance["max_abs_difference_from_linfa"]
        .as_f64()
        .unwrap();
    assert!(diff <= 1e-9, "difference from linfa {diff}");
    assert_eq!(model.classes().count(), 4);
    assert_eq!(model.file().provenance["pairs"], 57);
    let texts = dir.join("texts");
    let read =
        |f: &str| String::from_utf8_lossy(&std::fs::read(texts.join(f)).unwrap()).into_owned();
    assert!(
        model
            .judge_texts(&read("g0pA_taskb.txt"), &read("orig_taskb.txt"))
            .unwrap()
            .copied
    );
    assert!(
        !model
            .judge_texts(&read("g0pA_taska.txt"), &read("orig_taska.txt"))
            .unwrap()
            .copied
    );

    // The CLI uses a given model, and the built-in one by default.
    let a = texts.join("g0pA_taskb.txt");
    let b = texts.join("orig_taskb.txt");
    for extra in [vec!["--model", model_path.to_str().unwrap()], vec![]] {
        let mut args = vec![
            "compare",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            "--json",
        ];
        args.extend(extra);
        let out = neardup(&args, None);
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["verdict"]["copied"], true, "{v}");
        assert_eq!(v["verdict"]["vector"].as_array().unwrap().len(), 13);
    }

    // Nested leave-one-task-out evaluation.
    let out = neardup(
        &[
            "eval",
            "--svm",
            "--clough",
            dir.to_str().unwrap(),
            "--json",
            "--kernel",
            "rbf",
        ],
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["binary"]["roc_auc"].as_f64().unwrap() >= 0.9, "{v}");
    assert!(v["binary"]["f1"].as_f64().unwrap() >= 0.8, "{v}");
    let confusion: Vec<Vec<u64>> = serde_json::from_value(v["confusion"].clone()).unwrap();
    assert_eq!(confusion.iter().flatten().sum::<u64>(), 57);
}

#[test]
fn train_refuses_bad_data_and_compare_refuses_a_bad_model() {
    let one_class = tmp(
        "one-class.jsonl",
        b"{\"a\": \"x y z\", \"b\": \"x y z\", \"label\": \"cut\", \"group\": \"1\"}\n{\"a\": \"p q\", \"b\": \"p q r\", \"label\": \"light\", \"group\": \"2\"}\n",
    );
    let out = neardup(
        &[
            "train",
            "--pairs",
            one_class.to_str().unwrap(),
            "-o",
            "/dev/null",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("both \"non\" and copied pairs"));
    let empty = tmp("empty.jsonl", b"");
    let out = neardup(
        &[
            "train",
            "--pairs",
            empty.to_str().unwrap(),
            "-o",
            "/dev/null",
        ],
        None,
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("no training pairs"));
    let bad_model = tmp("bad-model.json", br#"{"format": 7}"#);
    let a = tmp("m-a.txt", b"some words here");
    let out = neardup(
        &[
            "compare",
            a.to_str().unwrap(),
            a.to_str().unwrap(),
            "--model",
            bad_model.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("format version 7"));
}
