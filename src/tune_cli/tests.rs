use super::*;
use quill::variants::gladiator::{Position, Rules};

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

fn read_text(text: &str, skip: u32) -> Data {
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
    let mut data = Data::default();
    let text = game(1, "1-0").replace("{b2g7}", "{b2b2}");
    let e = data
        .read(&text, 0, std::path::Path::new("t.pgn"))
        .expect_err("b2b2 is no turn");
    assert!(e.to_string().starts_with("t.pgn: game 1: 'b2b2'"), "{e}");
    let text = game(1, "1-0").replace("gladiator\"]", "pagan\"]");
    let e = Data::default()
        .read(&text, 0, std::path::Path::new("t.pgn"))
        .expect_err("pagan is not tuned");
    assert_eq!(e.to_string(), "t.pgn: game 1: variant pagan is not tuned");
}

/// Synthetic samples whose labels are the predictions of known weights `truth`.
fn synthetic(truth: &[i32; EVAL_TERMS], k: f64) -> Vec<Sample> {
    let position = Position::start(Rules::Gladiator);
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
                position: position.clone(),
                terms: [0; EVAL_TERMS].map(|_| next()),
                pawns: next() / 2,
                result: 0.0,
            };
            s.result = sigmoid(k * eval(&s, truth, 0) / 400.0);
            s
        })
        .collect()
}

#[test]
fn the_line_search_finds_the_weights_that_made_the_labels() {
    let truth = [20, -5, 13, 0, 7, -12, 3, 9, -40, 25, -1];
    let samples = synthetic(&truth, 1.0);
    let centre = [0; EVAL_TERMS];
    let search = Search {
        samples: &samples,
        centre: &centre,
        radius: 50,
        lambda: 0.0,
        tempo: 0,
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
    let (grad, z) = gradient(&samples, &w, 0, 2.0);
    for i in 0..EVAL_TERMS {
        let (mut up, mut down) = (w, w);
        up[i] += 1;
        down[i] -= 1;
        let slope = (error(&samples, &up, 0, 2.0) - error(&samples, &down, 0, 2.0)) / 2.0;
        assert!(
            (slope - grad[i]).abs() <= 1e-3 * slope.abs().max(1e-9),
            "{i}: {slope} {}",
            grad[i]
        );
    }
    // At the weights that made the labels the gradient vanishes.
    let (at_truth, _) = gradient(&samples, &truth, 0, 2.0);
    assert!(at_truth.iter().all(|g| g.abs() < 1e-12), "{at_truth:?}");
    // Far from them, strong weights are sure of their direction.
    assert!(z[8] > 5.0 && z[0] < -5.0, "{z:?}");
}
