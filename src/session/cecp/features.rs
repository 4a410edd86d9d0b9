//! The handshake: the features Quill offers, the board and pieces it describes for a
//! variant, and `help`.

use super::emit;
use crate::protocol::cecp::{EngineLine, Feature};
use crate::session::Session;
use crate::variant::Variant;

/// What `help` lists in CECP: each command and what it does.
pub(super) const CECP_HELP: &[(&str, &str)] = &[
    ("protover 2", "the features, ending with done=1"),
    (
        "new, variant V",
        "a new game; Quill plays apocalypse, apocalypse-classic, gladiator, brawl, pagan",
    ),
    (
        "force, go, playother",
        "stop playing, play the side to move, play the other side",
    ),
    (
        "usermove T",
        "a move; a sealed turn is one token WHITE|BLACK",
    ),
    (
        "sealed white|black, reveal W B",
        "sealed games: the engine's side, then the revealed pair",
    ),
    (
        "setboard FEN, undo, remove",
        "set or take back the position",
    ),
    (
        "level, st, sd, time, otim",
        "the clock and the search's limits",
    ),
    (
        "post, nopost, analyze, exit, ., hint, ?",
        "thinking output, analysis, a hint, move now",
    ),
    ("ping N", "pong N"),
    (
        "option N=V, memory N",
        "options (Seed, SealedCommit) and the table size",
    ),
    ("perft N, d", "count move sequences; show the board"),
    ("quit", "exit"),
];

impl Session {
    /// Every feature at once, ending with `done=1`: the engine never waits for an answer
    /// (python-chess gives none). Sealed variants are listed whatever the GUI will say of
    /// `sealed=1`; asking for one without having accepted it gets an error (see
    /// [`Session::cecp_refusal`]).
    pub(in crate::session) fn send_features(&mut self, out: &mut Vec<String>) {
        self.cecp.features_sent = true;
        let variants: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
        let flags = [
            ("ping", 1),
            ("setboard", 1),
            ("usermove", 1),
            ("sigint", 0),
            ("san", 0),
            ("colors", 0),
            ("time", 1),
            ("reuse", 1),
            ("analyze", 1),
            ("playother", 1),
            ("debug", 1),
            ("memory", 1),
            ("exclude", 1),
            ("highlight", 1),
            ("sealed", 1),
            ("turns", 1),
        ];
        let lines = [
            flags.map(|(name, on)| Feature::bare(name, on)).to_vec(),
            vec![
                Feature::quoted("myname", crate::session::uci::NAME),
                Feature::quoted("variants", variants.join(",")),
            ],
            vec![
                Feature::quoted(
                    "option",
                    format!("Seed -spin 0 0 {}", crate::session::core::MAX_SEED),
                ),
                Feature::quoted("option", "SealedCommit -check 0"),
                Feature::quoted("option", "BuiltinTablebase -check 1"),
                // XBoard then sends `egtpath quill PATH` for `-egtFormats quill:PATH`.
                Feature::quoted("egt", "quill"),
            ],
            vec![Feature::bare("done", 1)],
        ];
        for features in lines {
            emit(out, EngineLine::Feature(features));
        }
    }
}

/// The answer to `variant`: the board for XBoard, and the pieces Betza can describe.
pub(super) fn setup_lines(variant: Variant) -> Vec<String> {
    let game = crate::game::Game::start(variant);
    let g = game.geometry();
    let fen = game.fen();
    let six: Vec<&str> = fen.split_whitespace().take(6).collect();
    let mut lines = vec![EngineLine::Setup(format!(
        "({}) {}x{}+{} {}",
        variant.piece_to_char(),
        g.files(),
        g.ranks(),
        variant.xboard_parent(),
        six.join(" ")
    ))];
    lines.extend(
        variant
            .betza()
            .iter()
            .map(|(p, b)| EngineLine::Piece(format!("{p}& {b}"))),
    );
    lines.iter().map(ToString::to_string).collect()
}
