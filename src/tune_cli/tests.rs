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
    let e = Data::<quill::variants::pagan::Position>::default()
        .read(&text, 0, std::path::Path::new("t.pgn"))
        .expect_err("a Gladiator game read as Pagan");
    assert!(e.to_string().starts_with("t.pgn: game 1: bad FEN"), "{e}");
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
                // Some divided, as Pagan's evaluation is where the side ahead cannot win.
                divisor: if i % 3 == 0 { 8 } else { 1 },
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

/// The report of a fit of `texts` with every weight free (`min_z` 0), nothing pulling it
/// back (`lambda` 0), and this radius, and its table's rows (name, now, fitted), checked:
/// every weight is listed, and each fitted one is inside its range and the radius.
fn fit_free<P: Tunable>(texts: &[(PathBuf, String)], radius: i32) -> (String, Vec<Vec<String>>) {
    let args = TuneArgs {
        pgn: texts.iter().map(|(p, _)| p.clone()).collect(),
        skip_plies: 0,
        radius,
        rounds: 2,
        lambda: 0.0,
        min_z: 0.0,
    };
    let mut out = String::new();
    fit::<P>(&args, texts, &mut out).expect("it fits");
    let rows: Vec<Vec<String>> = out
        .lines()
        .skip_while(|l| !l.starts_with("weight "))
        .skip(1)
        .take(P::NAMES.len())
        .map(|l| l.split_whitespace().map(str::to_owned).collect())
        .collect();
    assert_eq!(
        rows.iter().map(|r| r[0].as_str()).collect::<Vec<_>>(),
        P::NAMES
    );
    for (i, row) in rows.iter().enumerate() {
        let (now, fitted): (i32, i32) = (row[1].parse().unwrap(), row[2].parse().unwrap());
        assert!(
            P::range(i).contains(&fitted) && (fitted - now).abs() <= radius,
            "{row:?}"
        );
    }
    // Every weight is free and nothing pulls it back: some move.
    assert!(rows.iter().any(|r| r[1] != r[2]), "{out}");
    (out, rows)
}

#[test]
fn tune_fits_apocalypse_on_a_small_pgn() {
    let texts = vec![(PathBuf::from("a.pgn"), APOCALYPSE.to_owned())];
    assert!(matches!(family(&texts), Ok(Family::Apocalypse)));
    let (out, rows) = fit_free::<quill::variants::apocalypse::Position>(&texts, 20);
    assert!(out.starts_with("2 games (1 repeats left out): "), "{out}");
    assert!(
        out.contains("the search reads evaluations at K = 3.2"),
        "{out}"
    );
    assert_eq!(rows.len(), quill::simsearch::eval::Weights::NAMES.len());
    // The footman is the unit; the penalty term is 0 in every position, so it cannot move.
    assert_eq!(rows[0][1..3], ["100", "100"]);
    assert_eq!(rows[6][1], rows[6][2]);
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
    let e = apocalypse_data(&(APOCALYPSE.to_owned() + PAGAN))
        .err()
        .expect("pagan among apocalypse");
    assert!(
        e.to_string()
            .contains("variant pagan is not of the first game's family"),
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
    check::<quill::variants::pagan::Position>(&[()]);
}

/// Two Pagan games of `quill match --pgn` (self-play at 2,000 nodes a move): 86 plies, Black
/// mates; 47 plies, White mates.
const PAGAN: &str = r#"[Event "quill match pagan"]
[Round "1033"]
[Result "0-1"]
[Variant "pagan"]
[SetUp "1"]
[FEN "kp3P1/1p4W/gp3PG/2a2PA/pw1P2K/*******/*******/*5*/*5*/*5*/*5* w - - 1 4"]

4. {f8e8} 4... {b7d7} 5. {g9e7} 5... {d7d8} 6. {g8e10} 6... {c8e10} 7. {g10e10}
7... {a9c7} 8. {e7d7} 8... {d8d9} 9. {g7g8} 9... {b4d2} 10. {d7c8} 10... {d9d7}
11. {f9e9} 11... {d2f4} 12. {e10c10} 12... {f4e3} 13. {f3d1} 13... {a11a10}
14. {g8g9} 14... {a10a9} 15. {f11e11} 15... {e3d2} 16. {e11d11} 16... {c7c4}
17. {f4e4} 17... {d7d8} 18. {e4d7} 18... {c4b3} 19. {f4e7} 19... {b3d7}
20. {e7f7} 20... {b4c7} 21. {f7d3} 21... {c7d4} 22. {d3b7} 22... {d4f8}
23. {g9f10} 23... {f8g8} 24. {b7c7} 24... {d8f8} 25. {f10g10} 25... {d2f4}
26. {e9d9} 26... {f4e3} 27. {d11c11} 27... {g8f9} 28. {g10g11} 28... {b4c4}
29. {c10d10} 29... {f8g8} 30. {c7c8} 30... {f9e9} 31. {c8e4} 31... {g8g9}
32. {g11f11} 32... {e3d2} 33. {d10c10} 33... {e9f9} 34. {e4e8} 34... {f9g10}
35. {f3d7} 35... {b4c4} 36. {d7e8} 36... {g10e10} 37. {f11e10} 37... {b4c7}
38. {e10f10} 38... {g9g8} 39. {f10f9} 39... {g8e8} 40. {f9e8} 40... {c7d7}
41. {e8d7} 41... {b3c4} 42. {c10c9} 42... {a9b8} 43. {c9b9} 43... {c4b3}
44. {b9b8} 44... {b3d3} 45. {d1c2} 45... {d3d7} 46. {b8c8} 46... {d7f7}
{Black mates on the dead board} 0-1

[Event "quill match pagan"]
[Round "901"]
[Result "1-0"]
[Variant "pagan"]
[SetUp "1"]
[FEN "1p4P/akp3W/1p3P1/w3P1A/p1g1GPK/*******/*******/*5*/*5*/*5*/*5* w - - 4 4"]

4. {e7d7} 4... {c7b7} 5. {f4e7} 5... {b7d7} 6. {e7d8} 6... {d7c4} 7. {f7e7}
7... {c4d4} 8. {g7f8} 8... {d4c3} 9. {g8e10} 9... {a8b8} 10. {d8d9}
10... {c3e7} 11. {f8e7} 11... {b4d8} 12. {d9d10} 12... {b4d8} 13. {e7f8}
13... {d8e8} 14. {f8e8} 14... {b4c7} 15. {e10d11} 15... {c7e9} 16. {d10e10}
16... {b8d8} 17. {e8e9} 17... {b3d7} 18. {g10g8} 18... {a10c8} 19. {e10c10}
19... {d8d9} 20. {c10d10} 20... {d9e9} 21. {e4d3} 21... {c8e10} 22. {d3d2}
22... {e10g8} 23. {d10d8} 23... {e9e11} 24. {e4d4} 24... {e11d11} 25. {e4c2}
25... {b3b2} 26. {d4b4} 26... {d7b3} 27. {b4b3} {White mates on the dead board}
1-0

"#;

fn pagan_data(text: &str) -> Data<quill::variants::pagan::Position> {
    let mut data = Data::default();
    data.read(text, 0, std::path::Path::new("p.pgn"))
        .expect("the games replay");
    data
}

#[test]
fn pagan_games_give_their_quiet_positions_labelled_for_the_side_to_move() {
    let data = pagan_data(PAGAN);
    assert_eq!((data.games, data.repeats), (2, 0));
    let all: Vec<_> = data.fit.iter().chain(&data.held).collect();
    // Most positions of these games have a capture (or, once a king is dead, a check): only
    // the quiet ones are kept.
    let first = all.iter().filter(|s| s.game == 0).count();
    assert!(first > 5 && first < 86, "{first}");
    for s in &all {
        let white = s.position.side_to_move() == quill::variant::Side::White;
        let expected = match (s.game, white) {
            (0, true) | (1, false) => 0.0,
            _ => 1.0,
        };
        assert_eq!(s.result, expected);
        // The fit's view is the search's evaluation.
        let w = <quill::variants::pagan::Position as Tunable>::current(());
        let dot: i32 = s.terms.iter().zip(&w).map(|(t, w)| t * w).sum();
        assert_eq!(
            (s.fixed + dot) / s.divisor,
            quill::search::Searchable::evaluate(&s.position)
        );
    }
}

#[test]
fn tune_fits_pagan_on_a_small_pgn() {
    let texts = vec![(PathBuf::from("p.pgn"), PAGAN.to_owned())];
    assert!(matches!(family(&texts), Ok(Family::Pagan)));
    let (out, rows) = fit_free::<quill::variants::pagan::Position>(&texts, 10);
    assert!(out.starts_with("2 games (0 repeats left out): "), "{out}");
    assert_eq!(
        rows.len(),
        quill::variants::pagan_play::Weights::NAMES.len()
    );
    assert!(out.contains("WEIGHTS = Weights {"), "{out}");
}
