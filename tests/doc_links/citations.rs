//! Citations of the rules in the fixtures' comments (`protocol-docs/rules.md §3, 6`): each
//! names a section and an item that exist, and a quotation after one is the rules' own text.

use super::*;

use std::path::Path;

use regex::Regex;

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
pub(crate) struct Rules {
    pub(crate) text: String,
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
pub(crate) fn check_citation(rules: &Rules, cite: &str) -> Option<String> {
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
pub(crate) fn normalized(s: &str) -> String {
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
pub(crate) fn check_quote(rules: &str, quote: &str) -> Option<String> {
    let cut = Regex::new(r"\.\.\.|\u{2026}|\[[^\]]*\]").expect("a regex");
    cut.split(quote)
        .map(|f| normalized(f).trim_matches([' ', '.', ',', ';']).to_string())
        .filter(|f| f.len() >= 8)
        .find(|f| !rules.contains(f.as_str()))
        .map(|f| format!("the quotation {f:?} is not in the rules"))
}

/// Every broken citation of the rules in the fixtures' comments, as `file:line: message`.
pub(crate) fn broken_citations(rules_path: &Path) -> Vec<String> {
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
