//! The match loop's tests: shards, pending games and early stops.

use super::*;

fn config(games: u32, shard: (u32, u32)) -> MatchConfig {
    MatchConfig {
        variant: Variant::Gladiator,
        seats: [
            Seat::Human { name: "a".into() },
            Seat::Human { name: "b".into() },
        ],
        games,
        concurrency: 1,
        seed: 7,
        opening_turns: 2,
        openings: None,
        adjudication: Adjudication {
            max_turns: 10,
            repetitions: 3,
            resign: None,
            draw: None,
        },
        margin: Duration::from_millis(100),
        move_timeout: Duration::from_secs(1),
        results: PathBuf::from("unused"),
        pgn: None,
        resume: false,
        sprt: None,
        log_dir: None,
        shard,
    }
}

#[test]
fn shards_split_pairs_and_cover_every_game_once() {
    let whole = config(10, (0, 1)).schedule();
    assert_eq!(whole, (0..10).collect::<Vec<_>>());
    let mut union: Vec<u32> = (0..3).flat_map(|i| config(10, (i, 3)).schedule()).collect();
    union.sort_unstable();
    assert_eq!(union, whole);
    // A pair's two games go to the same shard.
    assert_eq!(config(10, (1, 3)).schedule(), vec![2, 3, 8, 9]);
}

#[test]
fn openings_are_seeded_per_pair_and_legal() {
    let c = config(4, (0, 1));
    let first = c.opening(0);
    assert_eq!(first, c.opening(0), "the same pair gets the same opening");
    assert_ne!(first.fen, c.opening(1).fen, "pairs differ");
    let fen = first.fen.unwrap();
    let game = Game::from_fen(Variant::Gladiator, &fen).unwrap();
    assert!(game.outcome().is_none());
    let mut other = c.clone();
    other.seed = 8;
    assert_ne!(other.opening(0).fen, Some(fen), "the seed matters");
}

#[test]
fn clean_pgn_keeps_recorded_complete_games_once() {
    let dir = std::env::temp_dir().join(format!("quill-clean-pgn-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let path = dir.join("m.pgn");
    let game = |round: u32| format!("[Event \"x\"]\n[Round \"{round}\"]\n\n1. a2a3 *\n\n");
    let text = format!(
        "{}{}{}[Event \"x\"]\n[Round \"3\"]\n\n1. a2",
        game(1),
        game(2),
        game(1)
    );
    fs::write(&path, text).unwrap();
    clean_pgn(&path, &HashSet::from([0, 2])).unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), game(1));
    // Bytes that are not UTF-8 do not stop the cleaning.
    let mut bytes = game(1).into_bytes();
    bytes.extend_from_slice(b"[Event \"x\xff\"]\n[Round \"2\"]\n\n1. a2a3 *\n\n");
    bytes.extend_from_slice(game(2).as_bytes());
    fs::write(&path, bytes).unwrap();
    clean_pgn(&path, &HashSet::from([0])).unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), game(1));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn refuses_inconsistent_configs() {
    let mut c = config(4, (0, 1));
    assert!(c.check().is_err(), "two humans");
    c.seats[1] = seat::parse_seat(&["cmd=x".to_string()], &[], "a").unwrap();
    assert!(c.check().is_err(), "same names");
    c.seats[1] = seat::parse_seat(&["cmd=x".to_string()], &[], "b").unwrap();
    assert!(c.check().is_ok());
    c.shard = (3, 3);
    assert!(c.check().is_err());
}
