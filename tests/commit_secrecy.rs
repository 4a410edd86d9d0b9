//! Commit–reveal keeps the secret: in commit mode, nothing the engine prints before it opens
//! its commitment shows or narrows its sealed move, in either dialect, with thinking output on
//! or off, over many seeds and positions (`protocol-docs/sealed.md`, "What stays secret").
//!
//! Every line printed between the request and the opening must be one of the few forms that
//! carry only depth, nodes and time, or the commitment itself; and none may contain any move
//! of the side that is choosing.

use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use proptest::prelude::*;
use quill::game::Game;
use quill::notation::{WireMove, WireTurn};
use quill::session::{Input, Session};
use quill::variant::{Side, Variant};
use regex::Regex;

/// A session and the channel its searches report through.
struct Driver {
    session: Session,
    events: Receiver<Input>,
}

impl Driver {
    fn new() -> Driver {
        let (tx, events) = channel();
        Driver {
            session: Session::new(tx),
            events,
        }
    }

    /// Sends a line, then delivers search events until the session is idle; returns every
    /// line printed.
    fn send(&mut self, line: &str) -> Vec<String> {
        let mut out = self.session.handle(Input::Line(line.to_string()));
        while self.session.is_busy() {
            let event = self
                .events
                .recv_timeout(Duration::from_secs(60))
                .expect("the search reports");
            out.extend(self.session.handle(event));
        }
        out
    }
}

/// A position reached by `plies` random joint turns from the start (legal moves only), with
/// the turns that reach it; `None` when the game ended on the way.
fn position(variant: Variant, seed: u64, plies: usize) -> Option<(Game, Vec<WireTurn>)> {
    let mut rng = quill::rng::Rng::new(seed);
    let mut game = Game::start(variant);
    let mut turns = Vec::new();
    for _ in 0..plies {
        if game.outcome().is_some() {
            return None;
        }
        let pick = |rng: &mut quill::rng::Rng, moves: Vec<WireMove>| -> WireMove {
            let weights = vec![1.0; moves.len()];
            moves[rng.choose_weighted(&weights)].clone()
        };
        let white = pick(&mut rng, game.legal_moves(Side::White));
        let black = pick(&mut rng, game.legal_moves(Side::Black));
        let turn = WireTurn::Joint(white, black);
        game.play(&turn).expect("legal moves play");
        turns.push(turn);
    }
    game.outcome().is_none().then_some((game, turns))
}

/// Checks the lines printed before an opening: only the allowed forms, no move of `side`.
fn check_secret(lines: &[String], allowed: &Regex, game: &Game, side: Side) {
    let moves: Vec<String> = game
        .legal_moves(side)
        .iter()
        .map(ToString::to_string)
        .collect();
    for line in lines {
        assert!(
            allowed.is_match(line),
            "a line before the opening is not one of the secret-keeping forms: {line:?}"
        );
        // The digest is hexadecimal, which can spell a move by chance ("c1c2"): only the
        // other words count.
        let words: Vec<&str> = line
            .split_whitespace()
            .filter(|w| w.len() != 64 || !w.bytes().all(|b| b.is_ascii_hexdigit()))
            .collect();
        for mv in &moves {
            assert!(
                !words.iter().any(|w| w.contains(mv.as_str())),
                "a line before the opening names the move {mv}: {line:?}"
            );
        }
    }
}

/// The opening after `opponent`: the move revealed, which must be a legal move of `side`.
fn opened(lines: &[String], prefix: &str, game: &Game, side: Side) -> String {
    let mv = lines
        .iter()
        .find_map(|l| l.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no '{prefix}' in {lines:?}"))
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    assert!(
        game.legal_moves(side).iter().any(|m| m.to_string() == mv),
        "the opened move {mv} is not legal"
    );
    mv
}

fn uci_case(variant: Variant, seed: u64, plies: usize, side: Side, limit: &str) {
    let Some((game, turns)) = position(variant, seed, plies) else {
        return;
    };
    let mut d = Driver::new();
    d.send("uci");
    d.send(&format!("setoption name UCI_Variant value {variant}"));
    d.send(&format!("setoption name Seed value {}", seed % 1000 + 1));
    d.send("setoption name SealedCommit value true");
    let moves: Vec<String> = turns.iter().map(ToString::to_string).collect();
    let refused = d.send(&format!("position startpos moves {}", moves.join(" ")));
    assert!(refused.is_empty(), "{refused:?}");
    let word = if side == Side::White { "w" } else { "b" };
    let before = d.send(&format!("go sealed {word} {limit}"));
    assert!(
        before
            .last()
            .is_some_and(|l| l.starts_with("info string commit ")),
        "the search ends in a commitment: {before:?}"
    );
    let allowed =
        Regex::new(r"^(info depth \d+ nodes \d+ time \d+|info string commit [0-9a-f]{64})$")
            .unwrap();
    check_secret(&before, &allowed, &game, side);
    // A second request while the commitment is open is refused and shows nothing either.
    let again = d.send(&format!("go sealed {word} depth 1"));
    assert_eq!(
        again,
        [
            "info string error: go refused: a committed move awaits 'opponent M'",
            "bestmove (none)"
        ]
    );
    let after = d.send("opponent 0000");
    let mv = opened(&after, "info string reveal ", &game, side);
    assert_eq!(after.last().unwrap(), &format!("bestmove {mv}"));
}

fn cecp_case(variant: Variant, seed: u64, plies: usize, side: Side, post: bool, limit: &str) {
    let Some((game, turns)) = position(variant, seed, plies) else {
        return;
    };
    let mut d = Driver::new();
    d.send("xboard");
    d.send("protover 2");
    d.send("accepted sealed");
    d.send("new");
    d.send(&format!("variant {variant}"));
    d.send(&format!("option Seed={}", seed % 1000 + 1));
    d.send("option SealedCommit=1");
    d.send("force");
    for turn in &turns {
        let WireTurn::Joint(w, b) = turn else {
            unreachable!("sealed turns are joint")
        };
        let refused = d.send(&format!("reveal {w} {b}"));
        assert!(
            refused.iter().all(|l| l.starts_with("# penalty")),
            "{refused:?}"
        );
    }
    d.send(if post { "post" } else { "nopost" });
    d.send(limit);
    d.send(&format!("sealed {}", side.word()));
    let hint = d.send("hint");
    assert_eq!(
        hint,
        ["Error (no hint in commit–reveal mode: it would show the move): hint"]
    );
    let before = d.send("go");
    assert!(
        before.last().is_some_and(|l| l.starts_with("commit ")),
        "the search ends in a commitment: {before:?}"
    );
    let allowed = Regex::new(r"^(# depth \d+ nodes \d+ time \d+|commit [0-9a-f]{64})$").unwrap();
    check_secret(&before, &allowed, &game, side);
    let after = d.send("opponent 0000");
    let mv = opened(&after, "reveal ", &game, side);
    assert_eq!(after.last().unwrap(), &format!("move {mv}"));
    if post {
        // What was kept back comes with the opening.
        assert!(
            after.iter().any(|l| l.starts_with("# strategy ")),
            "{after:?}"
        );
    }
}

fn variant() -> impl Strategy<Value = Variant> {
    prop_oneof![Just(Variant::Apocalypse), Just(Variant::ApocalypseClassic)]
}

fn side() -> impl Strategy<Value = Side> {
    prop_oneof![Just(Side::White), Just(Side::Black)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn uci_prints_nothing_revealing_before_the_opening(
        variant in variant(), seed in any::<u64>(), plies in 0usize..12, side in side(),
        depth in 1u32..4,
    ) {
        uci_case(variant, seed, plies, side, &format!("depth {depth}"));
    }

    #[test]
    fn cecp_prints_nothing_revealing_before_the_opening(
        variant in variant(), seed in any::<u64>(), plies in 0usize..12, side in side(),
        post in any::<bool>(), depth in 1u32..4,
    ) {
        cecp_case(variant, seed, plies, side, post, &format!("sd {depth}"));
    }
}

#[test]
fn a_timed_search_keeps_the_secret_too() {
    for seed in 0..4 {
        uci_case(Variant::Apocalypse, seed, 4, Side::White, "movetime 150");
        cecp_case(Variant::Apocalypse, seed, 4, Side::Black, true, "st 0.15");
    }
}
