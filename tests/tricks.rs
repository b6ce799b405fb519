//! Issue 47: the tricks that hide a copy, undone. Every copied answer of
//! the shared Clough–Stevenson tasks, tricked four ways — Latin letters
//! typed as their Cyrillic look-alikes, a zero-width space after every
//! second letter of each word, soft hyphens inside words, Greek omicron
//! with zero-width joiners — keeps its score against the source (within
//! 0.02), its verdict, and says what was undone; untouched answers and
//! texts written in Russian, Greek or Serbian report nothing.

use neardup::verdict::SvmModel;
use neardup::{CompareConfig, Exclusions};

/// A trick: its name, and what it does to a text.
pub type Trick = (&'static str, fn(&str) -> String);

/// The four tricks, as a student would apply them with find-and-replace.
pub fn tricks() -> [Trick; 4] {
    [
        ("cyrillic", cyrillic),
        ("zwsp", |s| every_nth(s, 2, "\u{200B}")),
        ("soft-hyphen", |s| every_nth(s, 3, "\u{AD}")),
        ("omicron-zwj", |s| s.replace('o', "\u{200D}ο\u{200D}")),
    ]
}

/// а е о с р х у і for a e o c p x y i.
pub fn cyrillic(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            'a' => 'а',
            'e' => 'е',
            'o' => 'о',
            'c' => 'с',
            'p' => 'р',
            'x' => 'х',
            'y' => 'у',
            'i' => 'і',
            _ => c,
        })
        .collect()
}

/// `mark` after every `n`-th letter of a word, unless the word ends there.
pub fn every_nth(s: &str, n: usize, mark: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::new();
    let mut run = 0;
    for (i, &c) in chars.iter().enumerate() {
        out.push(c);
        run = if c.is_alphabetic() { run + 1 } else { 0 };
        if run > 0 && run % n == 0 && chars.get(i + 1).is_some_and(|c| c.is_alphabetic()) {
            out.push_str(mark);
        }
    }
    out
}

fn answers() -> Vec<(String, String, String, String)> {
    let dir = crate::util::data_dir().join("clough-abc");
    let labels = std::fs::read_to_string(dir.join("labels.csv")).unwrap();
    let read = |f: &str| {
        let bytes = std::fs::read(dir.join("texts").join(f)).unwrap();
        neardup::text::decode_text(&bytes).text
    };
    labels
        .lines()
        .skip(1)
        .filter_map(|row| {
            let f: Vec<&str> = row.split(',').collect();
            (!f[1].is_empty()).then(|| (f[0].to_string(), f[5].to_string(), read(f[0]), read(f[1])))
        })
        .collect()
}

#[test]
fn tricked_copies_keep_their_score_and_verdict_and_say_so() {
    let model = SvmModel::from_json(include_str!("../assets/model.json")).unwrap();
    let config = CompareConfig::default();
    let plain = CompareConfig::default().unmask(false);
    let none = Exclusions::default();
    let (mut copied, mut beaten_without) = (0, 0);
    for (name, category, answer, source) in answers() {
        let (r, v) = model.compare(&answer, &source, &config, &none).unwrap();
        assert!(
            r.obfuscation_a.is_empty() && r.obfuscation_b.is_empty(),
            "{name}: {:?}",
            r.obfuscation_a
        );
        assert!(r.obfuscation_a.warning.is_none());
        if category == "non" || !v.copied {
            continue;
        }
        copied += 1;
        for (trick, apply) in tricks() {
            let t = apply(&answer);
            assert_ne!(t, answer);
            let (tr, tv) = model.compare(&t, &source, &config, &none).unwrap();
            assert!(
                tr.measures.score >= r.measures.score - 0.02,
                "{name} {trick}: {} < {}",
                tr.measures.score,
                r.measures.score
            );
            assert!(tv.copied, "{name} {trick}: {tv:?}");
            let o = &tr.obfuscation_a;
            assert!(o.lookalikes + o.invisible > 0, "{name} {trick}: {o:?}");
            assert!(o
                .warning
                .as_deref()
                .unwrap()
                .contains("known way to hide copying"));
            match trick {
                "cyrillic" => assert!(o.lookalikes > 0 && o.invisible == 0, "{o:?}"),
                "omicron-zwj" => assert!(o.lookalikes > 0 && o.invisible > 0, "{o:?}"),
                _ => assert!(o.lookalikes == 0 && o.invisible > 0, "{o:?}"),
            }
            // Each range is in the tricked text, on what was changed.
            for g in &o.ranges {
                assert!(t[g.start..g.end].chars().all(|c| !c.is_ascii()));
            }
            // Without unmasking, the trick works: that is what is undone.
            let (pr, _) = model.compare(&t, &source, &plain, &none).unwrap();
            if pr.measures.score < r.measures.score - 0.2 {
                beaten_without += 1;
            }
        }
    }
    assert!(copied >= 25, "{copied}");
    assert!(
        beaten_without >= 3 * copied,
        "{beaten_without} of {}",
        4 * copied
    );
}

/// A paragraph written in Russian (not a trick: its main script is Cyrillic).
pub const RUSSIAN: &str =
    "Наследование — это механизм объектно-ориентированного программирования, позволяющий \
    создавать новые классы на основе уже существующих. Новый класс, называемый производным, \
    получает атрибуты и поведение базового класса и может их дополнять.";

/// A paragraph written in Greek.
pub const GREEK: &str =
    "Η κληρονομικότητα είναι ένας μηχανισμός του αντικειμενοστρεφούς προγραμματισμού, με τον \
    οποίο δημιουργούνται νέες κλάσεις από ήδη υπάρχουσες. Η νέα κλάση παίρνει τα γνωρίσματα \
    και τη συμπεριφορά της βασικής κλάσης.";

#[test]
fn other_scripts_report_nothing_and_compare_with_themselves_at_one() {
    for text in [
        RUSSIAN,
        GREEK,
        "Наслеђивање је механизам објектно оријентисаног програмирања којим се нове класе граде \
         од постојећих. Изведена класа преузима атрибуте и понашање основне класе.",
        "Nasleđivanje je mehanizam objektno orijentisanog programiranja kojim se nove klase grade \
         od postojećih. Izvedena klasa preuzima atribute i ponašanje osnovne klase.",
        "The area of a circle of radius r is π r², and for an angle α with tan α = β the slope \
         is β; as Δx → 0 the quotient tends to the derivative, written dy/dx or f′(x).",
    ] {
        let r = neardup::compare(text, text, &CompareConfig::default()).unwrap();
        assert_eq!(r.measures.score, 1.0);
        assert!(r.obfuscation_a.is_empty(), "{text}: {:?}", r.obfuscation_a);
        let n = neardup::text::normalize_with(text, CompareConfig::default().normalization());
        assert_eq!(&n, &neardup::normalize(text), "{text}");
    }
}

/// Item 4: with quotations left out, a text mostly inside quotation marks
/// says so, with the share — in `compare` and in a class set; a text that
/// quotes a little does not.
#[test]
fn a_text_mostly_quoted_says_so() {
    use neardup::classset::{class_pairs, ClassSetConfig};
    let source =
        "PageRank is a link analysis algorithm used by the Google Internet search engine that \
                  assigns a numerical weighting to each element of a hyperlinked set of documents.";
    let quoted = format!("My answer is this. “{source}”");
    let little = format!(
        "{source} As the book says, “ranking matters”, and it does for every page we read."
    );
    let on = CompareConfig::default().ignore_quotes(true);
    let r = neardup::compare(&quoted, source, &on).unwrap();
    assert!(r.quoted_a > 0.8, "{}", r.quoted_a);
    let w = r.quotation_warning.as_deref().unwrap();
    assert!(
        w.starts_with(&format!("{:.0} %", r.quoted_a * 100.0)),
        "{w}"
    );
    let r = neardup::compare(&little, source, &on).unwrap();
    assert!(r.quoted_a > 0.0 && r.quoted_a < 1.0 / 3.0, "{}", r.quoted_a);
    assert!(r.quotation_warning.is_none());
    // Not left out, nothing is said.
    let r = neardup::compare(&quoted, source, &CompareConfig::default()).unwrap();
    assert_eq!((r.quoted_a, r.quotation_warning.is_none()), (0.0, true));
    let c = class_pairs(
        &[quoted.as_str(), little.as_str()],
        &[],
        "",
        &ClassSetConfig::default(),
    )
    .unwrap();
    assert!(c.texts[0].quoted > 0.8 && c.texts[0].quotation_warning.is_some());
    assert!(c.texts[1].quotation_warning.is_none());
}
