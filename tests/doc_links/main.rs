//! The documentation's links resolve: every relative link in `protocol-docs/**/*.md` and
//! `README.md` names an existing file (and, with `#anchor` into a Markdown file, an existing
//! heading, by GitHub's slugs), and every citation of the rules in a fixture's comments
//! (`protocol-docs/rules.md §3, 6`) names the rules file, a section and an item that exist.
//! Each test fails naming every broken link, with its file and line.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use regex::Regex;

mod citations;

use citations::{Rules, broken_citations, check_citation, check_quote, normalized};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files_under(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// The documents whose links are checked.
fn documents() -> Vec<PathBuf> {
    let mut all = Vec::new();
    files_under(&root().join("protocol-docs"), &mut all);
    let mut docs: Vec<PathBuf> = all
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.push(root().join("README.md"));
    docs
}

/// The lines of a Markdown text outside fenced code blocks, with their 1-based numbers, and
/// with inline code spans blanked out (a link inside backticks is not a link).
fn prose_lines(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fence: Option<String> = None;
    let code = Regex::new(r"`+[^`]*`+").expect("a regex");
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if let Some(f) = &fence {
            if t.starts_with(f.as_str())
                && t.trim_end().chars().all(|c| c == f.as_bytes()[0] as char)
            {
                fence = None;
            }
            continue;
        }
        if t.starts_with("```") || t.starts_with("~~~") {
            let ch = t.as_bytes()[0] as char;
            let n = t.chars().take_while(|&c| c == ch).count();
            fence = Some(ch.to_string().repeat(n));
            continue;
        }
        out.push((i + 1, code.replace_all(line, "").into_owned()));
    }
    out
}

/// GitHub's anchor for a heading text: lower case, everything but letters, digits, spaces,
/// `-` and `_` dropped, spaces made hyphens.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown file's headings (duplicates get `-1`, `-2`, … as on GitHub).
fn anchors(text: &str) -> HashSet<String> {
    let mut seen = HashSet::new();
    let heading = Regex::new(r"^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$").expect("a regex");
    let link = Regex::new(r"\[([^\]]*)\]\([^)]*\)").expect("a regex");
    for (_, line) in prose_lines_keep_code(text) {
        if let Some(c) = heading.captures(&line) {
            // A heading's link text counts, its target does not; backticks vanish.
            let visible = link.replace_all(&c[1], "$1").replace('`', "");
            let base = slug(&visible);
            let mut s = base.clone();
            let mut k = 0;
            while seen.contains(&s) {
                k += 1;
                s = format!("{base}-{k}");
            }
            seen.insert(s);
        }
    }
    seen
}

/// Like [`prose_lines`] but keeping inline code (headings keep the text of their code spans).
fn prose_lines_keep_code(text: &str) -> Vec<(usize, String)> {
    let numbers: HashSet<usize> = prose_lines(text).into_iter().map(|(n, _)| n).collect();
    text.lines()
        .enumerate()
        .filter(|(i, _)| numbers.contains(&(i + 1)))
        .map(|(i, l)| (i + 1, l.to_string()))
        .collect()
}

/// Every broken relative link of one document, as `file:line: message`.
fn broken_links(doc: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(doc).expect("a readable document");
    let shown = doc
        .strip_prefix(root())
        .unwrap_or(doc)
        .display()
        .to_string();
    let inline = Regex::new(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+[^)]*)?\)").expect("a regex");
    let reference = Regex::new(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$").expect("a regex");
    let mut out = Vec::new();
    for (n, line) in prose_lines(&text) {
        let targets = inline
            .captures_iter(&line)
            .chain(reference.captures_iter(&line))
            .map(|c| c[1].to_string());
        for target in targets {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            if let Some(why) = resolve(doc, &target) {
                out.push(format!("{shown}:{n}: ({target}) {why}"));
            }
        }
    }
    out
}

/// Why a relative link from `doc` does not resolve, if it does not.
fn resolve(doc: &Path, target: &str) -> Option<String> {
    let (path, anchor) = match target.split_once('#') {
        Some((p, a)) => (p, Some(a)),
        None => (target, None),
    };
    let file = if path.is_empty() {
        doc.to_path_buf()
    } else if let Some(rooted) = path.strip_prefix('/') {
        root().join(rooted)
    } else {
        doc.parent().expect("a document's directory").join(path)
    };
    if !file.exists() {
        return Some("no such file".to_string());
    }
    if !file.starts_with(root()) || file.canonicalize().ok()?.strip_prefix(root()).is_err() {
        return Some("outside the repository".to_string());
    }
    match anchor {
        Some(a) if file.extension().is_some_and(|e| e == "md") => {
            let text = std::fs::read_to_string(&file).ok()?;
            (!anchors(&text).contains(a)).then(|| format!("no heading with anchor #{a}"))
        }
        _ => None,
    }
}

#[test]
fn every_relative_link_in_the_docs_resolves() {
    let docs = documents();
    assert!(docs.len() > 5, "the documents were found: {docs:?}");
    let broken: Vec<String> = docs.iter().flat_map(|d| broken_links(d)).collect();
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_checks_catch_what_they_are_for() {
    // Slugs as GitHub makes them.
    assert_eq!(
        slug("1. Apocalypse (apocalypse, and apocalypse-classic)"),
        "1-apocalypse-apocalypse-and-apocalypse-classic"
    );
    assert_eq!(
        slug("Brawl (the seed's variation)"),
        "brawl-the-seeds-variation"
    );
    assert_eq!(slug("Commit–reveal"), "commitreveal");
    let a = anchors("# A\n## `x` y\n```\n# not a heading\n```\n## A\n");
    assert!(a.contains("a") && a.contains("x-y") && a.contains("a-1"));
    assert!(!a.contains("not-a-heading"));
    // A broken file, a broken anchor and a link in code are told apart.
    let dir = std::env::temp_dir().join(format!("quill-doc-links-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let doc = root().join("protocol-docs/README.md");
    assert!(resolve(&doc, "rules.md#3-pagan-chess-pagan").is_none());
    assert!(resolve(&doc, "rules.md#4-chess").is_some());
    assert!(resolve(&doc, "missing.md").is_some());
    assert!(resolve(&doc, "../../outside.md").is_some());
    let bad = dir.join("bad.md");
    std::fs::write(
        &bad,
        "[x](nope.md) `[y](nope2.md)`\n```\n[z](nope3.md)\n```\n",
    )
    .unwrap();
    let b = broken_links(&bad);
    assert_eq!(b.len(), 1, "{b:?}");
    assert!(b[0].contains("nope.md"), "{b:?}");
    // Citations: a missing item, part or section, and a bare `rules.md`, are each caught.
    let rules = Rules {
        text: std::fs::read_to_string(root().join("protocol-docs/rules.md")).unwrap(),
    };
    assert!(check_citation(&rules, " §3, 6: \"checkmating").is_none());
    assert!(check_citation(&rules, " §2 Gladiator 2-3: \"A pawn").is_none());
    assert!(check_citation(&rules, " §3, 9: x").is_some());
    assert!(check_citation(&rules, " §2 Brawl 6: x").is_some());
    assert!(check_citation(&rules, " §4: x").is_some());
    assert!(check_citation(&rules, " (the rules)").is_some());
    assert!(!broken_citations(&dir.join("no-rules.md")).is_empty());
    let text = normalized(&rules.text);
    assert!(
        check_quote(
            &text,
            "`apocalypse`: otherwise [the rest] it stays a footman"
        )
        .is_none()
    );
    assert!(check_quote(&text, "checkmating a king ... on the dead board wins").is_none());
    assert!(check_quote(&text, "checkmating a king on the live board wins").is_some());
    std::fs::remove_dir_all(&dir).unwrap();
}
