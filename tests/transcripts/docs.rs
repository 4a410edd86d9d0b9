//! Fixtures and documentation: every fixture replays in process, and every `transcript` block
//! of the documents equals its fixture and replays.

use super::*;

use std::path::{Path, PathBuf};

use quill::transcript::{self, InProcess};

#[test]
fn every_fixture_replays_in_process() {
    let files = transcript::find_transcripts(&root().join("fixtures")).unwrap();
    assert!(!files.is_empty(), "no transcripts under fixtures/");
    let mut failures = Vec::new();
    for file in &files {
        let name = shown(file);
        let text = std::fs::read_to_string(file).unwrap();
        let result = transcript::parse(&name, &text)
            .map_err(|e| e.to_string())
            .and_then(|t| transcript::run(&t, &mut InProcess::new()).map_err(|e| e.to_string()));
        if let Err(message) = result {
            failures.push(format!("FAIL - {name}\n{message}"));
        }
    }
    report("fixtures", files.len(), &failures);
}

/// Every Markdown file under `dir`, recursively, sorted.
fn markdown_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|ext| ext == "md") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

#[test]
fn every_doc_transcript_replays_and_matches_its_fixture() {
    let mut failures = Vec::new();
    let mut count = 0;
    let mut documents = markdown_files(&root().join("protocol-docs"));
    // The README's sessions are checked like the specification's.
    documents.push(root().join("README.md"));
    for file in documents {
        let name = shown(&file);
        let markdown = std::fs::read_to_string(&file).unwrap();
        let blocks = match transcript::doc_blocks(&name, &markdown) {
            Ok(blocks) => blocks,
            Err(e) => {
                failures.push(e.to_string());
                continue;
            }
        };
        for block in blocks {
            count += 1;
            let at = format!("{name}:{}", block.line - 1);
            if let Some(fixture) = &block.info {
                let path = root().join("fixtures").join(fixture);
                match std::fs::read_to_string(&path) {
                    Ok(text) if text == block.text => {}
                    Ok(_) => failures.push(format!(
                        "{at}: the block differs from fixtures/{fixture}; make them equal"
                    )),
                    Err(e) => failures.push(format!("{at}: cannot read fixtures/{fixture}: {e}")),
                }
            }
            let result = transcript::parse_at(&name, &block.text, block.line)
                .map_err(|e| e.to_string())
                .and_then(|t| {
                    transcript::run(&t, &mut InProcess::new()).map_err(|e| e.to_string())
                });
            if let Err(message) = result {
                failures.push(format!("{at}: the block fails:\n{message}"));
            }
        }
    }
    assert!(count > 0, "no ```transcript blocks in protocol-docs/");
    report("documented transcripts", count, &failures);
}

#[test]
fn doc_blocks_are_extracted_with_line_numbers() {
    let markdown = "# Title\n\
                    ```transcript\n\
                    > quit\n\
                    @ exit\n\
                    ```\n\
                    ```text\n\
                    > not a transcript\n\
                    ```\n\
                    ```transcripts\n\
                    ```\n\
                    \x20 ```transcript  selftest/x.txt \n\
                    \x20 > a\n\
                    \x20   < b\n\
                    \x20 ```\n";
    let blocks = transcript::doc_blocks("d.md", markdown).unwrap();
    assert_eq!(blocks.len(), 2, "{blocks:?}");
    assert_eq!(blocks[0].line, 3);
    assert_eq!(blocks[0].info, None);
    assert_eq!(blocks[0].text, "> quit\n@ exit\n");
    assert_eq!(blocks[1].line, 12);
    assert_eq!(blocks[1].info.as_deref(), Some("selftest/x.txt"));
    assert_eq!(blocks[1].text, "> a\n  < b\n");

    let error = transcript::doc_blocks("d.md", "text\n```transcript\n> a\n").unwrap_err();
    assert_eq!((error.name.as_str(), error.line), ("d.md", 2));
}
