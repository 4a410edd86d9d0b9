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
    let openings = c.openings();
    assert_eq!(
        openings,
        c.openings(),
        "the same pair gets the same opening"
    );
    assert_eq!(openings.len(), 2, "one opening per pair");
    assert_ne!(openings[&0].fen, openings[&1].fen, "pairs differ");
    let fen = openings[&0].fen.clone().unwrap();
    let game = Game::from_fen(Variant::Gladiator, &fen).unwrap();
    assert!(game.outcome().is_none());
    let mut other = c.clone();
    other.seed = 8;
    assert_ne!(other.openings()[&0].fen, Some(fen), "the seed matters");
}

/// Every distinct position one random turn from the start, found by walking the rules.
fn one_turn_positions(variant: Variant) -> HashSet<String> {
    let start = Game::start(variant);
    start
        .legal_turns()
        .iter()
        .map(|t| {
            let mut g = start.clone();
            g.play(t).unwrap();
            g.fen()
        })
        .collect()
}

#[test]
fn random_openings_are_distinct_until_they_are_used_up() {
    // Pagan has few openings of one turn, so pairs draw repeats early.
    let all = one_turn_positions(Variant::Pagan);
    let n = all.len() as u32;
    assert!(n > 3, "{n} one-turn openings");
    let mut c = config(2 * (n + 3), (0, 1));
    c.variant = Variant::Pagan;
    c.opening_turns = 1;
    let openings = c.openings();
    let fen = |p: u32| openings[&p].fen.clone().unwrap();
    // The first n pairs get every one-turn position once, redrawn where a draw repeated one.
    let first: HashSet<String> = (0..n).map(fen).collect();
    assert_eq!(first, all);
    assert!(
        (0..n).any(|p| openings[&p].id.matches(':').count() == 3),
        "some pair needed a second draw"
    );
    assert_eq!(
        openings[&0].id, "seed:7:0",
        "a first draw keeps the pair's id"
    );
    // Then a new round: positions come again, distinct among themselves.
    let again: HashSet<String> = (n..n + 3).map(fen).collect();
    assert_eq!(again.len(), 3);
    assert!(again.is_subset(&all));
    // Every shard draws the same opening for its pairs.
    let mut sharded = HashMap::new();
    for i in 0..3 {
        let mut s = c.clone();
        s.shard = (i, 3);
        let part = s.openings();
        assert!(part.keys().all(|p| p % 3 == i));
        sharded.extend(part);
    }
    assert_eq!(sharded, openings);
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
