use super::data::Sample;
use super::fitting::{eval, sigmoid};
use super::*;
use quill::variants::gladiator::Position;

/// How many weights the Gladiator evaluation has.
const EVAL_TERMS: usize = 11;

/// A game of `quill match --pgn` (Gladiator, 27 plies), with its round number.
fn game(round: u32, result: &str) -> String {
    format!(
        "[Event \"quill match gladiator\"]\n[Round \"{round}\"]\n[Result \"{result}\"]\n\
         [Variant \"gladiator\"]\n[SetUp \"1\"]\n\
         [FEN \"r1bqkb1r/2pp1pp1/1p1p2p1/n1Pp3Q/7R/1P2P1P1/1P1PP1P1/RNBnKBN1 w - - 0 4\"]\n\n\
         4. {{b2g7}} 4... {{f7g7,d8g8}} 5. {{e3d5,h5a2}} 5... {{d6g3,g8h2}} 6. {{b3g3,a2a3}}\n\
         6... {{g6f6,h2d8}} 7. {{c5b6,a3a2}} 7... {{c7b6,a8h3}} 8. {{d2g5,a1h5}} 8... {{g7g5}}\n\
         9. {{g3g5,b1a8}} 9... {{f6g5,d1a4}} 10. {{d5g5,g1d1}} 10... {{b6b4,d8a3}}\n\
         11. {{g2e4,a2b1}} 11... {{b4b3,a3a2}} 12. {{g5f5,h4h7}} 12... {{b3b6,a2a7}}\n\
         13. {{e2d2,h5h6}} 13... {{d7f5}} 14. {{e4f5}} 14... {{b6b3,a7a2}} 15. {{f5d5,b1g8}}\n\
         15... {{b3g3,a2h2}} 16. {{d2g2,h7h1}} 16... {{g3g2}} 17. {{d5g2}}\n\
         {{Black has no pawns left}} {result}\n\n"
    )
}

fn read_text(text: &str, skip: u32) -> Data<Position> {
    let mut data = Data::default();
    data.read(text, skip, std::path::Path::new("t.pgn"))
        .expect("the games replay");
    data
}

#[test]
fn a_repeated_game_is_read_once() {
    let once = read_text(&game(1, "1-0"), 0);
    assert_eq!((once.games, once.repeats), (1, 0));
    let twice = read_text(&(game(1, "1-0") + &game(2, "1-0")), 0);
    assert_eq!((twice.games, twice.repeats), (1, 1));
    assert_eq!(
        twice.fit.len() + twice.held.len(),
        once.fit.len() + once.held.len()
    );
    // The same moves with another result are another game, and share the opening's side
    // of the split.
    let other = read_text(&(game(1, "1-0") + &game(2, "0-1")), 0);
    assert_eq!((other.games, other.repeats), (2, 0));
    assert!(other.fit.is_empty() || other.held.is_empty());
    // 27 plies, some of them captures: fewer positions than plies, and none when the
    // opening plies skipped cover the game.
    let n = once.fit.len() + once.held.len();
    assert!(n > 0 && n < 27, "{n}");
    let skipped = read_text(&game(1, "1-0"), 27);
    assert_eq!(skipped.fit.len() + skipped.held.len(), 0);
}

#[test]
fn labels_are_for_the_side_to_move() {
    let data = read_text(&game(1, "1-0"), 0);
    for s in data.fit.iter().chain(&data.held) {
        let white = s.position.side_to_move() == quill::variant::Side::White;
        assert_eq!(s.result, if white { 1.0 } else { 0.0 });
    }
}

#[test]
fn a_bad_game_names_its_fault() {
    let mut data = Data::<Position>::default();
    let text = game(1, "1-0").replace("{b2g7}", "{b2b2}");
    let e = data
        .read(&text, 0, std::path::Path::new("t.pgn"))
        .expect_err("b2b2 is no turn");
    assert!(e.to_string().starts_with("t.pgn: game 1: 'b2b2'"), "{e}");
    let text = game(1, "1-0").replace("gladiator\"]", "pagan\"]");
    let e = Data::<Position>::default()
        .read(&text, 0, std::path::Path::new("t.pgn"))
        .expect_err("pagan is not tuned");
    assert!(
        e.to_string()
            .starts_with("t.pgn: game 1: pagan's evaluation is not tunable"),
        "{e}"
    );
}

/// Synthetic samples whose labels are the predictions of known weights `truth`.
fn synthetic(truth: &[i32; EVAL_TERMS], k: f64) -> Vec<Sample<()>> {
    let mut seed = 12345u64;
    let mut next = move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 33) % 7) as i32 - 3
    };
    (0..2000)
        .map(|i| {
            let mut s = Sample {
                game: i / 10,
                position: (),
                terms: (0..EVAL_TERMS).map(|_| next()).collect(),
                fixed: 100 * (next() / 2),
                result: 0.0,
            };
            s.result = sigmoid(k * eval(&s, truth) / 400.0);
            s
        })
        .collect()
}

#[test]
fn the_line_search_finds_the_weights_that_made_the_labels() {
    let truth = [20, -5, 13, 0, 7, -12, 3, 9, -40, 25, -1];
    let samples = synthetic(&truth, 1.0);
    let centre = [0; EVAL_TERMS];
    let ranges = vec![-1000..=1000; EVAL_TERMS];
    let search = Search {
        samples: &samples,
        centre: &centre,
        ranges: &ranges,
        radius: 50,
        lambda: 0.0,
        k: 1.0,
    };
    let mut w = centre;
    search.line_search(&mut w, &[true; EVAL_TERMS]);
    assert_eq!(w, truth);
    // Held weights stay; a radius bounds the others.
    let mut w = centre;
    let mut free = [true; EVAL_TERMS];
    free[0] = false;
    let near = Search {
        radius: 10,
        ..search
    };
    near.line_search(&mut w, &free);
    assert_eq!(w[0], 0);
    assert!(w.iter().all(|v| v.abs() <= 10), "{w:?}");
    // A pull toward the centre shrinks the fit.
    let pulled = Search {
        lambda: 1.0,
        ..search
    };
    let mut w = centre;
    pulled.line_search(&mut w, &[true; EVAL_TERMS]);
    assert!(w.iter().zip(&truth).all(|(a, b)| a.abs() <= b.abs()));
    assert_ne!(w, truth);
}

#[test]
fn the_gradient_is_the_slope_of_the_error() {
    let truth = [20, -5, 13, 0, 7, -12, 3, 9, -40, 25, -1];
    let samples = synthetic(&truth, 2.0);
    let w = [0; EVAL_TERMS];
    let (grad, z) = gradient(&samples, &w, 2.0);
    for i in 0..EVAL_TERMS {
        let (mut up, mut down) = (w, w);
        up[i] += 1;
        down[i] -= 1;
        let slope = (error(&samples, &up, 2.0) - error(&samples, &down, 2.0)) / 2.0;
        assert!(
            (slope - grad[i]).abs() <= 1e-3 * slope.abs().max(1e-9),
            "{i}: {slope} {}",
            grad[i]
        );
    }
    // At the weights that made the labels the gradient vanishes.
    let (at_truth, _) = gradient(&samples, &truth, 2.0);
    assert!(at_truth.iter().all(|g| g.abs() < 1e-12), "{at_truth:?}");
    // Far from them, strong weights are sure of their direction.
    assert!(z[8] > 5.0 && z[0] < -5.0, "{z:?}");
}

/// Two Apocalypse games of `quill match --pgn` (seed rules), written out by hand, the first
/// twice (a repeat).
const APOCALYPSE: &str = "\
[Event \"quill match apocalypse\"]\n[Round \"1\"]\n[Result \"0-1\"]\n\
[Variant \"apocalypse\"]\n[SetUp \"1\"]\n[FEN \"1ppp1/p3p/1N1n1/P1N1P/1nP2 w - - 0 5 0/0\"]\n\n\
5. {b3c5|d3c1} 6. {c5e4|c1a2} 7. {e4c5|a2c1} 8. {c2a3|c1e2}\n\
{White has no footmen left} 0-1\n\n\
[Event \"quill match apocalypse\"]\n[Round \"2\"]\n[Result \"0-1\"]\n\
[Variant \"apocalypse\"]\n[SetUp \"1\"]\n[FEN \"1ppp1/p3p/1N1n1/P1N1P/1nP2 w - - 0 5 0/0\"]\n\n\
5. {b3c5|d3c1} 6. {c5e4|c1a2} 7. {e4c5|a2c1} 8. {c2a3|c1e2}\n\
{White has no footmen left} 0-1\n\n\
[Event \"quill match apocalypse\"]\n[Round \"3\"]\n[Result \"1-0\"]\n\
[Variant \"apocalypse\"]\n[SetUp \"1\"]\n[FEN \"1ppp1/p1n2/5/P2n1/NPP1N w - - 1 5 0/0\"]\n\n\
5. {a1b3|d2b1} 6. {b3c5|b1c3} 7. {a2a3|c3a2} 8. {c1c2|c4a3} 9. {c2c3|a2c3}\n\
{White has no footmen left} 1-0\n\n";

fn apocalypse_data(text: &str) -> Result<Data<quill::variants::apocalypse::Position>, TuneError> {
    let mut data = Data::default();
    data.read(text, 0, std::path::Path::new("a.pgn"))?;
    Ok(data)
}

#[test]
fn apocalypse_games_give_every_position_labelled_for_white() {
    let data = apocalypse_data(APOCALYPSE).expect("the games replay");
    assert_eq!((data.games, data.repeats), (2, 1));
    // Every position before a turn is kept (4 + 5 turns; none of them has ended).
    let all: Vec<_> = data.fit.iter().chain(&data.held).collect();
    assert_eq!(all.len(), 9);
    // The first game (0-1) and the second (1-0, whatever its moves), for White.
    for s in &all {
        assert_eq!(s.result, if s.game == 0 { 0.0 } else { 1.0 });
        assert_eq!(s.fixed, 0);
    }
    // The first game's first position, counted by hand. White: footmen a2 e2 c1, horsemen
    // b3 c2; Black: footmen b5 c5 d5 a4 e4, horsemen d3 b1. Each side has one horseman
    // exposed (b3 to a4, d3 to e2) and one footman hit (c1 by d3, c5 by b3); advance 2 and
    // 2; mobility 5 + 6 against 5 + 3.
    let first = all
        .iter()
        .find(|s| s.game == 0)
        .expect("the first game's positions");
    assert_eq!(first.terms, [-2, 0, 0, 0, 0, 0, 0, 0, 3]);
}

#[test]
fn tune_fits_apocalypse_on_a_small_pgn() {
    let args = TuneArgs {
        pgn: vec![PathBuf::from("a.pgn")],
        skip_plies: 0,
        radius: 20,
        rounds: 2,
        lambda: 0.0,
        min_z: 0.0,
    };
    let texts = vec![(PathBuf::from("a.pgn"), APOCALYPSE.to_owned())];
    assert!(matches!(family(&texts), Ok(Family::Apocalypse)));
    let mut out = String::new();
    fit::<quill::variants::apocalypse::Position>(&args, &texts, &mut out).expect("it fits");
    assert!(out.starts_with("2 games (1 repeats left out): "), "{out}");
    assert!(
        out.contains("the search reads evaluations at K = 3.2"),
        "{out}"
    );
    let rows: Vec<Vec<&str>> = out
        .lines()
        .skip_while(|l| !l.starts_with("weight "))
        .skip(1)
        .take(9)
        .map(|l| l.split_whitespace().collect())
        .collect();
    let names: Vec<&str> = rows.iter().map(|r| r[0]).collect();
    assert_eq!(names, quill::simsearch::eval::Weights::NAMES);
    for (i, row) in rows.iter().enumerate() {
        let (now, fitted): (i32, i32) = (row[1].parse().unwrap(), row[2].parse().unwrap());
        let range = <quill::variants::apocalypse::Position as Tunable>::range(i);
        assert!(
            range.contains(&fitted) && (fitted - now).abs() <= 20,
            "{row:?}"
        );
    }
    // The footman is the unit; the penalty term is 0 in every position, so it cannot move.
    assert_eq!(rows[0][1..3], ["100", "100"]);
    assert_eq!(rows[6][1], rows[6][2]);
    // Every weight is free (`min_z` 0) and nothing pulls it back (`lambda` 0): some move.
    assert!(rows.iter().any(|r| r[1] != r[2]), "{out}");
    assert!(out.contains("SEED_WEIGHTS = Weights {"), "{out}");
}

#[test]
fn one_run_fits_one_evaluation() {
    let classic = APOCALYPSE.replacen("\"apocalypse\"]", "\"apocalypse-classic\"]", 1);
    let e = apocalypse_data(&classic).err().expect("two rule sets");
    assert!(
        e.to_string().starts_with(
            "a.pgn: game 2: variant apocalypse has other weights than the first game's \
             (Classic rules)"
        ),
        "{e}"
    );
    let e = apocalypse_data(&(APOCALYPSE.to_owned() + &game(4, "1-0")))
        .err()
        .expect("gladiator among apocalypse");
    assert!(
        e.to_string()
            .contains("variant gladiator is not of the first game's family"),
        "{e}"
    );
    let pagan = vec![(
        PathBuf::from("p.pgn"),
        "[Event \"x\"]\n[Variant \"pagan\"]\n".to_owned(),
    )];
    let e = family(&pagan).err().expect("pagan is not tunable");
    assert!(
        e.to_string().contains("pagan's evaluation is not tunable"),
        "{e}"
    );
}

#[test]
fn the_current_weights_are_inside_their_ranges() {
    fn check<P: Tunable>(sets: &[P::RuleSet]) {
        for &set in sets {
            let current = P::current(set);
            assert_eq!(current.len(), P::NAMES.len());
            for (i, w) in current.iter().enumerate() {
                assert!(P::range(i).contains(w), "{} {w}", P::NAMES[i]);
            }
        }
    }
    check::<Position>(&[quill::variants::gladiator::Rules::Gladiator]);
    check::<quill::variants::apocalypse::Position>(&[
        quill::variants::apocalypse::Rules::Seed,
        quill::variants::apocalypse::Rules::Classic,
    ]);
}
