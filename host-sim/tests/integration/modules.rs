//! The modules of `src/` import each other without a circle (issue 36): every `crate::NAME`
//! (and `crate::{A, B}`) path outside comments is an edge from the file's top-level module to
//! `NAME`, and the graph of those edges must have no cycle. What several subcommands share lives
//! in its own module (`ticks`, `replay`, `netplay::inputs`, `scenario::driver`), never inside one
//! subcommand's file.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// `.rs` files under `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![];
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(rust_files(&p));
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
    out
}

/// The top-level modules `text` names through `crate::` paths, comments left out.
fn crate_paths(text: &str) -> BTreeSet<String> {
    let code: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .map(|l| format!("{l}\n"))
        .collect();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = BTreeSet::new();
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // `crate::{a, b::c, d}`: the first name of each comma-separated part.
            let body = &group[..group.find('}').unwrap_or(group.len())];
            out.extend(body.split(',').map(|p| ident(p.trim())));
        } else {
            out.insert(ident(rest));
        }
    }
    out.retain(|m| !m.is_empty() && m.chars().next().is_some_and(|c| c.is_ascii_lowercase()));
    out
}

/// Top-level module → the top-level modules it uses.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in rust_files(&src) {
        let rel = f.strip_prefix(&src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let module = first.trim_end_matches(".rs").to_string();
        if module == "lib" || module == "main" {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        let uses = g.entry(module.clone()).or_default();
        uses.extend(crate_paths(&text).into_iter().filter(|m| *m != module));
    }
    g
}

/// A cycle of `g` as a path `a → b → … → a`, if there is one.
fn find_cycle(g: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        g: &BTreeMap<String, BTreeSet<String>>,
        m: &str,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = stack.iter().position(|s| s == m) {
            let mut cycle = stack[at..].to_vec();
            cycle.push(m.to_string());
            return Some(cycle);
        }
        if done.contains(m) {
            return None;
        }
        stack.push(m.to_string());
        for next in g.get(m).into_iter().flatten() {
            if let Some(c) = visit(g, next, stack, done) {
                return Some(c);
            }
        }
        stack.pop();
        done.insert(m.to_string());
        None
    }
    let mut done = BTreeSet::new();
    g.keys().find_map(|m| visit(g, m, &mut vec![], &mut done))
}

#[test]
fn the_modules_import_each_other_without_a_circle() {
    let g = graph();
    // The reader sees the edges that are there (a test that finds no edges proves nothing).
    for (from, to) in [
        ("app", "scenario"),
        ("app", "replay"),
        ("app", "netplay"),
        ("app", "ticks"),
        ("scenario", "replay"),
        ("netplay", "replay"),
        ("replay", "ticks"),
    ] {
        assert!(
            g[from].contains(to),
            "{from} should use {to}: {:?}",
            g[from]
        );
    }
    if let Some(cycle) = find_cycle(&g) {
        panic!(
            "the modules of host-sim/src import each other in a circle: {}",
            cycle.join(" → ")
        );
    }
}

#[test]
fn the_cycle_finder_finds_a_planted_circle() {
    let mut g = graph();
    g.get_mut("ticks").unwrap().insert("app".into());
    let cycle = find_cycle(&g).expect("ticks → app → ticks");
    assert_eq!(cycle.first(), cycle.last());
    assert!(cycle.contains(&"app".to_string()) && cycle.contains(&"ticks".to_string()));
    let parsed = crate_paths("use crate::{a::B, c};\n// crate::d\nlet x = crate::e::f();\n");
    assert_eq!(parsed, ["a", "c", "e"].map(String::from).into());
}
