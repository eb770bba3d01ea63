//! Measured figures in the README and docs/ that come from `firmware/budgets.txt` are marked
//! `<!--b NAME-->1,234<!--/b-->` (invisible in rendered Markdown) and must equal that row's
//! baseline, so the docs cannot disagree with the measurements (`scripts/docs-numbers.sh --write`
//! rewrites them; `scripts/budgets.sh --update` calls it).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn baselines() -> HashMap<String, u64> {
    let text = std::fs::read_to_string(repo().join("firmware/budgets.txt")).unwrap();
    text.lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split('#').next()?.split_whitespace().collect();
            match fields[..] {
                [name, _limit, base] => Some((name.to_string(), base.parse().ok()?)),
                _ => None,
            }
        })
        .collect()
}

/// `1234567` → `1,234,567`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Every `(name, shown)` marker in `text`.
fn markers(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("<!--b ") {
        rest = &rest[at + 6..];
        let (name, after) = rest.split_once("-->").expect("a `<!--b NAME-->` marker");
        let (shown, after) = after
            .split_once("<!--/b-->")
            .expect("a closing `<!--/b-->`");
        out.push((name.to_string(), shown.to_string()));
        rest = after;
    }
    out
}

#[test]
fn marked_figures_equal_the_budget_baselines() {
    let base = baselines();
    let mut files = vec![repo().join("README.md")];
    for entry in std::fs::read_dir(repo().join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            files.push(path);
        }
    }
    let (mut checked, mut stale) = (0, Vec::new());
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (name, shown) in markers(&text) {
            checked += 1;
            match base.get(&name) {
                Some(&want) if grouped(want) == shown => {}
                Some(&want) => stale.push(format!(
                    "{}: {name} shows {shown}, budgets.txt has {}",
                    file.display(),
                    grouped(want)
                )),
                None => stale.push(format!("{}: {name}: no such budget row", file.display())),
            }
        }
    }
    assert!(
        stale.is_empty(),
        "stale figures (scripts/docs-numbers.sh --write):\n{}",
        stale.join("\n")
    );
    assert!(
        checked >= 10,
        "only {checked} marked figures: the markers went missing?"
    );
}

#[test]
fn grouping_and_parsing() {
    assert_eq!(grouped(7), "7");
    assert_eq!(grouped(1_000), "1,000");
    assert_eq!(grouped(332_966), "332,966");
    assert_eq!(grouped(1_234_567), "1,234,567");
    let m = markers("a <!--b x.y-->1,000<!--/b--> b <!--b z-->2<!--/b-->");
    assert_eq!(
        m,
        [("x.y".into(), "1,000".into()), ("z".into(), "2".into())]
    );
}
