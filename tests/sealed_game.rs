//! Whole sealed Apocalypse games between two `quill` processes, refereed by this test through
//! the documented extension (`protocol-docs/sealed.md`), in each dialect and in commit–reveal
//! mode. The referee keeps its own position with Quill's rules and checks every answer.

mod common;

use std::io::Write;
use std::process::Command;
use std::time::Duration;

use quill::game::{Game, Outcome};
use quill::notation::{WireTurn, parse_move};
use quill::variant::{Side, Variant};

/// Turns after which the referee adjudicates a draw (the rules leave endless games to it).
const TURN_CAP: usize = 300;

struct Engine(common::Quill);

impl Engine {
    fn start() -> Engine {
        Engine(common::spawn_quill_lines(&[]))
    }

    fn send(&mut self, line: &str) {
        writeln!(self.0.stdin, "{line}").expect("engine reads");
        self.0.stdin.flush().unwrap();
    }

    /// Reads lines until one starts with `prefix`; returns the rest of it.
    fn expect(&mut self, prefix: &str) -> String {
        loop {
            let line = self
                .0
                .lines
                .recv_timeout(Duration::from_secs(20))
                .unwrap_or_else(|_| panic!("no line starting with '{prefix}'"));
            assert!(
                !line.starts_with("Error") && !line.contains("error:"),
                "engine complained: {line}"
            );
            if let Some(rest) = line.strip_prefix(prefix) {
                return rest.trim().to_string();
            }
        }
    }

    fn quit(mut self) {
        self.send("quit");
        let status = self.0.child.wait().unwrap();
        assert!(status.success());
    }
}

/// One engine's sealed answer, checked against its commitment when there is one.
fn opened(
    engine: &mut Engine,
    digest: Option<&str>,
    reveal_prefix: &str,
    move_prefix: &str,
) -> String {
    let mv = match digest {
        None => engine.expect(move_prefix),
        Some(digest) => {
            let opening = engine.expect(reveal_prefix);
            let (mv, nonce) = opening.split_once(' ').expect("reveal MOVE NONCE");
            assert!(
                quill::commit::verify(digest, mv, nonce),
                "a broken commitment"
            );
            let verify = Command::new(env!("CARGO_BIN_EXE_quill"))
                .args(["verify", digest, mv, nonce])
                .output()
                .unwrap();
            assert!(
                verify.status.success(),
                "quill verify rejects an honest opening"
            );
            let answered = engine.expect(move_prefix);
            assert_eq!(answered, mv, "the move differs from the opened commitment");
            mv.to_string()
        }
    };
    assert!(parse_move(&mv).is_some(), "not a move: {mv}");
    mv
}

/// Plays the turn on the referee's own position and checks both moves were legal.
fn referee_turn(game: &mut Game, white: &str, black: &str) {
    for (side, mv) in [(Side::White, white), (Side::Black, black)] {
        let legal = game.legal_moves(side);
        assert!(
            legal.contains(&parse_move(mv).unwrap()),
            "{side:?} played the illegal {mv}"
        );
    }
    let turn = WireTurn::Joint(parse_move(white).unwrap(), parse_move(black).unwrap());
    let penalties = game.play(&turn).expect("the turn plays");
    assert!(penalties.is_empty());
}

fn uci_game(variant: Variant, commit: bool) -> (Option<Outcome>, usize) {
    let mut engines = [Engine::start(), Engine::start()];
    for (i, e) in engines.iter_mut().enumerate() {
        e.send("uci");
        e.expect("uciok");
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        e.send(&format!("setoption name Seed value {}", 11 + i));
        e.send(&format!("setoption name SealedCommit value {commit}"));
        e.send("ucinewgame");
        e.send("isready");
        e.expect("readyok");
    }
    let mut game = Game::start(variant);
    let mut moves: Vec<String> = Vec::new();
    while game.outcome().is_none() && moves.len() < TURN_CAP {
        let position = format!("position startpos moves {}", moves.join(" "));
        for (e, side) in engines.iter_mut().zip(["w", "b"]) {
            e.send(position.trim_end());
            e.send(&format!("go sealed {side} movetime 20"));
        }
        let digests: Vec<Option<String>> = engines
            .iter_mut()
            .map(|e| commit.then(|| e.expect("info string commit")))
            .collect();
        if commit {
            engines[0].send(&format!("opponent {}", digests[1].as_ref().unwrap()));
            engines[1].send(&format!("opponent {}", digests[0].as_ref().unwrap()));
        }
        let white = opened(
            &mut engines[0],
            digests[0].as_deref(),
            "info string reveal",
            "bestmove",
        );
        let black = opened(
            &mut engines[1],
            digests[1].as_deref(),
            "info string reveal",
            "bestmove",
        );
        referee_turn(&mut game, &white, &black);
        moves.push(format!("{white}|{black}"));
    }
    for e in engines {
        e.quit();
    }
    (game.outcome(), moves.len())
}

fn cecp_game(variant: Variant, commit: bool) -> (Option<Outcome>, usize) {
    let mut engines = [Engine::start(), Engine::start()];
    for (i, (e, side)) in engines.iter_mut().zip(["white", "black"]).enumerate() {
        e.send("xboard");
        e.send("protover 2");
        let offered = e.expect("feature ping=1");
        assert!(offered.contains("sealed=1"), "no sealed=1: {offered}");
        let features = e.expect("feature myname=");
        assert!(
            features.contains(variant.name()),
            "{variant} not offered: {features}"
        );
        e.expect("feature done=1");
        // Answered after done=1, as every GUI does: the engine never waited for it.
        e.send("accepted sealed");
        e.send("new");
        e.send(&format!("variant {variant}"));
        e.expect("setup");
        e.send(&format!("option Seed={}", 21 + i));
        e.send(&format!("option SealedCommit={}", u8::from(commit)));
        e.send("force");
        e.send(&format!("sealed {side}"));
        e.send("go");
    }
    let mut game = Game::start(variant);
    let mut turns = 0;
    loop {
        let digests: Vec<Option<String>> = engines
            .iter_mut()
            .map(|e| commit.then(|| e.expect("commit")))
            .collect();
        if commit {
            engines[0].send(&format!("opponent {}", digests[1].as_ref().unwrap()));
            engines[1].send(&format!("opponent {}", digests[0].as_ref().unwrap()));
        }
        let white = opened(&mut engines[0], digests[0].as_deref(), "reveal", "move");
        let black = opened(&mut engines[1], digests[1].as_deref(), "reveal", "move");
        referee_turn(&mut game, &white, &black);
        turns += 1;
        let over = game.outcome().is_some() || turns >= TURN_CAP;
        for e in engines.iter_mut() {
            if over {
                e.send("force");
            }
            e.send(&format!("reveal {white} {black}"));
        }
        if let Some(outcome) = game.outcome() {
            for e in engines.iter_mut() {
                assert_eq!(
                    e.expect(outcome.result()),
                    format!("{{{}}}", outcome.reason)
                );
            }
        }
        if over {
            break;
        }
    }
    for e in engines.iter_mut() {
        e.send("ping 9");
        e.expect("pong 9");
    }
    for e in engines {
        e.quit();
    }
    (game.outcome(), turns)
}

#[test]
fn uci_sealed_game_ends() {
    let (outcome, turns) = uci_game(Variant::Apocalypse, false);
    eprintln!("uci apocalypse: {outcome:?} after {turns} turns");
    assert!(turns > 0 && (outcome.is_some() || turns == TURN_CAP));
}

#[test]
fn cecp_sealed_game_ends() {
    let (outcome, turns) = cecp_game(Variant::ApocalypseClassic, false);
    eprintln!("cecp apocalypse-classic: {outcome:?} after {turns} turns");
    assert!(turns > 0 && (outcome.is_some() || turns == TURN_CAP));
}

#[test]
fn uci_commit_reveal_game_ends() {
    let (outcome, turns) = uci_game(Variant::ApocalypseClassic, true);
    eprintln!("uci commit: {outcome:?} after {turns} turns");
    assert!(turns > 0 && (outcome.is_some() || turns == TURN_CAP));
}

#[test]
fn cecp_commit_reveal_game_ends() {
    let (outcome, turns) = cecp_game(Variant::Apocalypse, true);
    eprintln!("cecp commit: {outcome:?} after {turns} turns");
    assert!(turns > 0 && (outcome.is_some() || turns == TURN_CAP));
}
