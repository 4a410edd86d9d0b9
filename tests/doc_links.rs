//! The documentation's links resolve: every relative link in `protocol-docs/**/*.md` and
//! `README.md` names an existing file (and, with `#anchor` into a Markdown file, an existing
//! heading, by GitHub's slugs), and every citation of the rules in a fixture's comments
//! (`protocol-docs/rules.md §3, 6`) names the rules file, a section and an item that exist.
//! Each test fails naming every broken link, with its file and line.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use regex::Regex;

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

/// The comment lines from the first of `lines` on, up to the first line that is not a comment,
/// run together with single spaces (the `#` marks removed).
fn comment_text(lines: &[&str]) -> String {
    lines
        .iter()
        .map_while(|l| l.trim_start().strip_prefix('#'))
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The rules file as sections (`## N.`), each with its subsections (`### Name`) and their
/// numbered items and bold headings.
struct Rules {
    text: String,
}

impl Rules {
    /// The text of section `n` (up to the next `## `), or of part `part` of it.
    fn section(&self, n: u32, part: Option<&str>) -> Option<String> {
        let start = format!("## {n}. ");
        let mut body = self
            .text
            .split("\n## ")
            .map(|s| format!("## {s}"))
            .find(|s| s.starts_with(&start))?;
        if let Some(p) = part {
            body = body.split("\n### ").find(|s| s.starts_with(p))?.to_string();
        }
        Some(body)
    }
}

/// Why a citation (what follows `rules.md`) names nothing in the rules, if it does not.
fn check_citation(rules: &Rules, cite: &str) -> Option<String> {
    let conventions = Regex::new(r"^, conventions").expect("a regex");
    if conventions.is_match(cite) {
        return (!rules.text.contains("\n## Conventions for all games\n"))
            .then(|| "no conventions section".to_string());
    }
    let form = Regex::new(
        r"^ §(\d+)(?:,? (Gladiator|Brawl)\b)?(?:,? (Start|Notation)\b)?(?:,? ((?:\d+(?:-\d+)?)(?:(?:, | and )\d+(?:-\d+)?)*)\b)?",
    )
    .expect("a regex");
    let Some(c) = form.captures(cite) else {
        return Some("not a citation of the form `§N`, `§N, M` or `§N Part M`".to_string());
    };
    let n: u32 = c[1].parse().ok()?;
    let part = c.get(2).map(|m| m.as_str());
    let Some(body) = rules.section(n, part) else {
        return Some(format!(
            "no section §{n}{}",
            part.map(|p| format!(" {p}")).unwrap_or_default()
        ));
    };
    if let Some(word) = c.get(3)
        && !body.contains(&format!("**{}", word.as_str()))
    {
        return Some(format!("§{n} has no **{}**", word.as_str()));
    }
    if let Some(items) = c.get(4) {
        let numbers = Regex::new(r"\d+").expect("a regex");
        for m in numbers.find_iter(items.as_str()) {
            let item = format!("\n{}. ", m.as_str());
            if !body.contains(&item) {
                return Some(format!(
                    "§{n}{} has no item {}",
                    part.map(|p| format!(" {p}")).unwrap_or_default(),
                    m.as_str()
                ));
            }
        }
    }
    None
}

/// A text as quotations are compared: no Markdown emphasis or code marks, no bracketed insertions
/// (`[ruling: …]`, a quoter's `[2 horsemen …]`), ASCII dashes, list items run together, single
/// spaces.
fn normalized(s: &str) -> String {
    let brackets = Regex::new(r"\[[^\]]*\]").expect("a regex");
    let items = Regex::new(r"\n\s*- ").expect("a regex");
    let s = s
        .replace(['`', '*'], "")
        .replace(['\u{2013}', '\u{2212}'], "-");
    let s = items.replace_all(&s, " ");
    let s = brackets.replace_all(&s, " ");
    let spaces = Regex::new(r"\s+").expect("a regex");
    spaces
        .replace_all(&s, " ")
        .replace(" :", ":")
        .replace(" ,", ",")
        .replace(" .", ".")
        .trim()
        .to_string()
}

/// Why a quotation (`"…"` right after a citation) is not the rules' text, if it is not: each of
/// its fragments (between `...` elisions and bracketed insertions) must appear in the rules.
fn check_quote(rules: &str, quote: &str) -> Option<String> {
    let cut = Regex::new(r"\.\.\.|\u{2026}|\[[^\]]*\]").expect("a regex");
    cut.split(quote)
        .map(|f| normalized(f).trim_matches([' ', '.', ',', ';']).to_string())
        .filter(|f| f.len() >= 8)
        .find(|f| !rules.contains(f.as_str()))
        .map(|f| format!("the quotation {f:?} is not in the rules"))
}

/// Every broken citation of the rules in the fixtures' comments, as `file:line: message`.
fn broken_citations(rules_path: &Path) -> Vec<String> {
    let rules = Rules {
        text: std::fs::read_to_string(rules_path).unwrap_or_default(),
    };
    let mut fixtures = Vec::new();
    files_under(&root().join("fixtures"), &mut fixtures);
    let mention = Regex::new(r"(\S*)rules\.md").expect("a regex");
    let quotation = Regex::new(r#"^[^"\n]{0,40}?: "([^"]*)""#).expect("a regex");
    let rules_text = normalized(&rules.text);
    let mut out = Vec::new();
    let mut cited = 0;
    let (mut quoted, mut quoted_bad) = (0, 0);
    for f in fixtures {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        let shown = f.strip_prefix(root()).unwrap_or(&f).display().to_string();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let Some(comment) = line.trim_start().strip_prefix('#') else {
                continue;
            };
            // A citation may run on into the next comment line.
            let next = lines
                .get(i + 1)
                .and_then(|l| l.trim_start().strip_prefix('#'))
                .unwrap_or("");
            let joined = format!("{comment} {}", next.trim_start());
            for m in mention.captures_iter(comment) {
                cited += 1;
                let whole = m.get(0).expect("a match");
                let prefix = m[1].trim_start_matches(['(', '`', '[', '"']);
                if prefix != "protocol-docs/" {
                    out.push(format!(
                        "{shown}:{}: `{prefix}rules.md` is not the repository's \
                         protocol-docs/rules.md",
                        i + 1
                    ));
                    continue;
                }
                if !rules_path.exists() {
                    out.push(format!(
                        "{shown}:{}: protocol-docs/rules.md is missing",
                        i + 1
                    ));
                    continue;
                }
                let rest = &joined[whole.end()..];
                if let Some(why) = check_citation(&rules, rest) {
                    out.push(format!("{shown}:{}: rules.md{rest:.24}…: {why}", i + 1));
                    continue;
                }
                // A quotation that follows (`: "…"`, possibly over several comment lines) is
                // the rules' own text.
                let after = comment_text(&lines[i..]);
                let from = after.find(whole.as_str()).map_or(0, |k| k + whole.len());
                if let Some(q) = quotation.captures(&after[from..])
                    && let Some(why) = check_quote(&rules_text, &q[1])
                {
                    quoted_bad += 1;
                    out.push(format!("{shown}:{}: {why}", i + 1));
                }
                quoted += 1;
            }
        }
    }
    assert!(cited > 50, "the fixtures' citations were found ({cited})");
    assert!(
        quoted > 50 || quoted_bad > 0 || !rules_path.exists(),
        "the fixtures' quotations were found ({quoted})"
    );
    out
}

#[test]
fn every_citation_of_the_rules_in_the_fixtures_resolves() {
    let broken = broken_citations(&root().join("protocol-docs/rules.md"));
    assert!(
        broken.is_empty(),
        "broken citations:\n{}",
        broken.join("\n")
    );
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
