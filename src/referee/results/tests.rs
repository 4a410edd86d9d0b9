use super::*;

/// A fresh path in the system's temporary directory.
fn temp_path(name: &str) -> PathBuf {
    let path =
        std::env::temp_dir().join(format!("quill-results-{}-{name}.txt", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

/// A record of game `game` between `quill` and `other-1.2`, colours alternating.
pub(crate) fn record(game: u32, result: GameResult) -> GameRecord {
    GameRecord {
        game,
        pair: game / 2,
        white: if game.is_multiple_of(2) {
            "quill"
        } else {
            "other-1.2"
        }
        .to_owned(),
        black: if game.is_multiple_of(2) {
            "other-1.2"
        } else {
            "quill"
        }
        .to_owned(),
        result,
        plies: 40 + game,
        opening: format!("seed:7:{}", game / 2),
        reason: "Black has no footmen left".to_owned(),
    }
}

#[test]
fn append_then_resume() {
    let path = temp_path("resume");
    let mut f = ResultsFile::create(&path, "seed=7 cmd=quill match a b").unwrap();
    f.append(&record(0, GameResult::WhiteWins)).unwrap();
    f.append(&record(1, GameResult::Draw)).unwrap();
    assert!(matches!(
        f.append(&record(1, GameResult::Draw)),
        Err(Error::AlreadyRecorded {
            game: 1,
            line: 3,
            ..
        })
    ));
    let mut bad = record(2, GameResult::Draw);
    bad.white = "two words".to_owned();
    assert!(matches!(f.append(&bad), Err(Error::BadRecord { .. })));
    drop(f);
    assert!(ResultsFile::create(&path, "").is_err(), "never overwritten");

    let (mut f, games) = ResultsFile::open_resume(&path).unwrap();
    assert_eq!(f.header_extra(), "seed=7 cmd=quill match a b");
    assert_eq!(
        games,
        vec![
            record(0, GameResult::WhiteWins),
            record(1, GameResult::Draw)
        ]
    );
    f.append(&record(2, GameResult::BlackWins)).unwrap();
    assert!(matches!(
        f.append(&record(0, GameResult::Draw)),
        Err(Error::AlreadyRecorded { line: 2, .. })
    ));
    assert_eq!(read_all(&path).unwrap().len(), 3);
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn a_torn_last_line_is_cut_away() {
    let path = temp_path("torn");
    let mut f = ResultsFile::create(&path, "").unwrap();
    f.append(&record(0, GameResult::WhiteWins)).unwrap();
    drop(f);
    let good_len = std::fs::metadata(&path).unwrap().len();
    // A crash in the middle of writing game 1.
    let torn = record(1, GameResult::Draw).to_string();
    let mut raw = OpenOptions::new().append(true).open(&path).unwrap();
    raw.write_all(&torn.as_bytes()[..20]).unwrap();
    drop(raw);

    assert_eq!(read_all(&path).unwrap().len(), 1, "reading ignores it");
    let (mut f, games) = ResultsFile::open_resume(&path).unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(std::fs::metadata(&path).unwrap().len(), good_len, "cut off");
    f.append(&record(1, GameResult::Draw)).unwrap();
    drop(f);
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 3);
    assert_eq!(read_all(&path).unwrap()[1], record(1, GameResult::Draw));
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn an_overlong_line_is_refused_unparsed() {
    let path = temp_path("overlong");
    let good = record(0, GameResult::WhiteWins).to_string();
    let long = "x".repeat(MAX_RESULTS_LINE + 1);
    std::fs::write(&path, format!("{HEADER}\n{good}\n{long}\n")).unwrap();
    let err = read_all(&path).unwrap_err();
    assert!(matches!(err, Error::BadLine { line: 3, .. }), "{err}");
    assert!(err.to_string().contains("a line of 65537 bytes"), "{err}");
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn damage_is_an_error_naming_the_line() {
    let path = temp_path("damage");
    let good = record(0, GameResult::WhiteWins).to_string();
    std::fs::write(&path, format!("{HEADER}\n{good}\ngarbage\n")).unwrap();
    let err = ResultsFile::open_resume(&path).unwrap_err();
    assert!(matches!(err, Error::BadLine { line: 3, .. }), "{err}");
    assert!(err.to_string().contains(":3: "), "{err}");

    std::fs::write(&path, format!("{HEADER}\n{good}\n{good}\n")).unwrap();
    let err = read_all(&path).unwrap_err();
    assert!(
        matches!(
            err,
            Error::Duplicate {
                line: 3,
                first_line: 2,
                game: 0,
                ..
            }
        ),
        "{err}"
    );

    for header in ["", "quill-results 2\n", "quill-results 1x\n", "quill-resu"] {
        std::fs::write(&path, header).unwrap();
        assert!(
            matches!(read_all(&path), Err(Error::BadHeader { .. })),
            "{header:?}"
        );
    }
    std::fs::write(&path, format!("{HEADER}\n")).unwrap();
    assert_eq!(read_all(&path).unwrap(), vec![]);
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn crlf_endings_are_not_part_of_the_header_or_the_records() {
    let path = temp_path("crlf");
    let good = record(0, GameResult::WhiteWins);
    std::fs::write(&path, format!("{HEADER} seed=7\r\n{good}\r\n")).unwrap();
    let (mut f, games) = ResultsFile::open_resume(&path).unwrap();
    assert_eq!(f.header_extra(), "seed=7");
    assert_eq!(games, vec![good]);
    f.append(&record(1, GameResult::Draw)).unwrap();
    assert_eq!(read_all(&path).unwrap().len(), 2);
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn an_empty_or_torn_header_restarts_only_for_its_own_match() {
    let path = temp_path("torn-header");
    let full = format!("{HEADER} seed=7 a=x\n");
    for cut in [0, 5, full.len() - 1] {
        std::fs::write(&path, &full[..cut]).unwrap();
        let err = ResultsFile::open_resume(&path).unwrap_err();
        assert!(matches!(err, Error::BadHeader { .. }), "{cut}: {err}");
        let (mut f, games) =
            ResultsFile::open_resume_or_restart(&path, Some("seed=7 a=x")).unwrap();
        assert!(games.is_empty());
        f.append(&record(0, GameResult::Draw)).unwrap();
        drop(f);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with(&full), "{cut}: {text:?}");
        assert_eq!(read_all(&path).unwrap().len(), 1);
    }
    // Another match's torn header is not taken over.
    std::fs::write(&path, &full[..full.len() - 2]).unwrap();
    assert!(ResultsFile::open_resume_or_restart(&path, Some("seed=8 a=x")).is_err());
    std::fs::remove_file(&path).unwrap();
}
