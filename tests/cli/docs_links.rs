//! The documents' links: every relative link in README.md, docs/, the
//! adapters' and tapes' notes and tests/README.md names a file or folder of
//! the repository, and every `#anchor` a heading of its target (GitHub's
//! rule: lower case, punctuation dropped, spaces to hyphens, a repeated
//! heading numbered `-1`, `-2`...). Links to the web (`http:`, `https:`,
//! `mailto:`) are not followed.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::common::repo;

/// The Markdown files whose links are checked.
fn documents() -> Vec<PathBuf> {
    let mut files = vec![repo("README.md"), repo("tests/README.md")];
    for dir in ["docs", "adapters", "tapes"] {
        collect(&repo(dir), &mut files);
    }
    files
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|e| e == "md") {
            out.push(p);
        }
    }
}

/// The text outside fenced code blocks and inline code spans.
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            out.push('\n');
            continue;
        }
        if fenced {
            out.push('\n');
            continue;
        }
        let mut in_code = false;
        for c in line.chars() {
            if c == '`' {
                in_code = !in_code;
            } else if !in_code {
                out.push(c);
            }
        }
        out.push('\n');
    }
    out
}

/// Each link target of the form `](target)` or `](target "title")`.
fn links(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        let end = rest.find(')').unwrap_or(rest.len());
        let target = rest[..end].split_whitespace().next().unwrap_or("");
        found.push(target.trim_matches(['<', '>']).to_string());
    }
    found
}

/// GitHub's anchor for a heading's text.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown file's headings (outside code blocks).
fn anchors(text: &str) -> HashSet<String> {
    let mut seen = HashSet::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let heading = line.trim_start_matches('#');
        if !heading.starts_with(' ') {
            continue;
        }
        let base = slug(&heading.replace('`', ""));
        let mut anchor = base.clone();
        let mut n = 0;
        while seen.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        seen.insert(anchor);
    }
    seen
}

/// What is wrong with one link of `doc`, if anything.
fn check(doc: &Path, target: &str) -> Option<String> {
    if target.is_empty()
        || ["http://", "https://", "mailto:"]
            .iter()
            .any(|p| target.starts_with(p))
    {
        return None;
    }
    let (path, anchor) = match target.split_once('#') {
        Some((p, a)) => (p, Some(a)),
        None => (target, None),
    };
    let file = if path.is_empty() {
        doc.to_path_buf()
    } else {
        doc.parent().unwrap().join(path)
    };
    if !file.exists() {
        return Some(format!("{target}: no file {}", file.display()));
    }
    let anchor = anchor?;
    if file.extension().is_none_or(|e| e != "md") {
        return Some(format!(
            "{target}: an anchor into a file that is not Markdown"
        ));
    }
    let text = std::fs::read_to_string(&file).unwrap();
    (!anchors(&text).contains(anchor)).then(|| format!("{target}: no heading #{anchor}"))
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).unwrap();
        for target in links(&prose(&text)) {
            checked += 1;
            if let Some(why) = check(&doc, &target) {
                let name = doc
                    .strip_prefix(repo("."))
                    .unwrap_or(&doc)
                    .display()
                    .to_string();
                broken.push(format!("{name}: {why}"));
            }
        }
    }
    assert!(checked >= 50, "only {checked} links found");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_checker_finds_a_broken_link_and_anchor() {
    let doc = repo("README.md");
    assert!(check(&doc, "docs/no-such-chapter.md").is_some());
    assert!(check(&doc, "#no-such-heading").is_some());
    assert!(check(&doc, "#set-up").is_none());
    assert!(check(&doc, "https://example.org/x").is_none());
    assert_eq!(
        slug("The Z80 cores: `own`, z80emu (issue 3)"),
        "the-z80-cores-own-z80emu-issue-3"
    );
    let heads = anchors("# A\n```\n# B\n```\n## A\n### C d\n");
    assert_eq!(
        heads,
        ["a", "a-1", "c-d"].iter().map(|s| s.to_string()).collect()
    );
}
