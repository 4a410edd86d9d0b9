//! The handshake: what `uci` answers (identification and options), the board
//! announcement of a variant, and `help`.

use super::{NAME, emit};
use crate::protocol::uci::{EngineLine, OptionKind, UciOption};
use crate::session::Session;
use crate::variant::Variant;

/// An option as `uci` declares it.
pub(in crate::session) fn option(name: &str, kind: OptionKind) -> EngineLine {
    EngineLine::Option(UciOption {
        name: name.to_owned(),
        kind,
    })
}

/// A spin option's declaration.
pub(in crate::session) fn spin(name: &str, default: u64, min: u64, max: u64) -> EngineLine {
    let wide = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
    option(
        name,
        OptionKind::Spin {
            default: wide(default),
            min: wide(min),
            max: wide(max),
        },
    )
}

/// A check option's declaration, off by default.
pub(in crate::session) fn check(name: &str) -> EngineLine {
    option(name, OptionKind::Check { default: false })
}

/// What `help` lists in UCI: each command and what it does.
pub(super) const UCI_HELP: &[(&str, &str)] = &[
    ("uci", "identification and options, then uciok"),
    ("isready", "readyok, also while thinking"),
    (
        "setoption name N value V",
        "set an option (UCI_Variant: apocalypse, apocalypse-classic, gladiator, brawl, pagan)",
    ),
    ("ucinewgame", "a new game of the variant"),
    (
        "position startpos|fen FEN [moves T ...]",
        "set the position; a sealed turn is one token WHITE|BLACK",
    ),
    (
        "go [depth N|movetime MS|nodes N|mate N|infinite|wtime ...]",
        "think and answer bestmove; sealed games need 'go sealed w|b'",
    ),
    (
        "go perft N",
        "count move sequences, split by the first turn",
    ),
    ("stop, ponderhit", "end the search and answer bestmove"),
    (
        "opponent M|DIGEST",
        "commit-reveal: the opponent's move has arrived",
    ),
    ("d", "show the board"),
    ("quit", "exit"),
];

/// What `uci` answers: identification, options, `uciok`.
pub(in crate::session) fn identification() -> Vec<EngineLine> {
    let table = |n: usize| u64::try_from(n).unwrap_or(u64::MAX);
    vec![
        EngineLine::IdName(NAME.to_owned()),
        EngineLine::IdAuthor("the Quill developers".to_owned()),
        option(
            "UCI_Variant",
            OptionKind::Combo {
                default: Variant::DEFAULT.to_string(),
                vars: Variant::ALL.iter().map(ToString::to_string).collect(),
            },
        ),
        spin("Seed", 0, 0, crate::session::core::MAX_SEED),
        check("SealedCommit"),
        spin(
            "Hash",
            table(crate::search::TransTable::DEFAULT_MIB),
            1,
            table(crate::search::TransTable::MAX_MIB),
        ),
        option("Clear Hash", OptionKind::Button),
        spin(
            "Contempt",
            crate::search::DEFAULT_CONTEMPT as u64,
            0,
            crate::search::MAX_CONTEMPT as u64,
        ),
        option(
            "TablebasePath",
            OptionKind::Text {
                default: String::new(),
            },
        ),
        option("BuiltinTablebase", OptionKind::Check { default: true }),
        // Declared because GUIs and python-chess send them unasked; the true ranges of a
        // one-thread, one-line search (see uci.md).
        spin("Threads", 1, 1, 1),
        spin("MultiPV", 1, 1, 1),
        check("Ponder"),
        check("UCI_AnalyseMode"),
        EngineLine::UciOk,
    ]
}

impl Session {
    /// The board announcement, as Fairy-Stockfish makes it when `UCI_Variant` is set (with
    /// the six standard FEN fields), and for a sealed variant the line that says so.
    pub(in crate::session) fn announce(&mut self, out: &mut Vec<String>) {
        let variant = self.core.variant();
        let start = crate::game::Game::start(variant);
        let g = start.geometry();
        let fen = start.fen();
        let six: Vec<&str> = fen.split_whitespace().take(6).collect();
        emit(
            out,
            EngineLine::InfoString(format!(
                "variant {variant} files {} ranks {} pocket 0 template fairy startpos {}",
                g.files(),
                g.ranks(),
                six.join(" ")
            )),
        );
        if variant.is_sealed() {
            emit(out, EngineLine::InfoString(format!("sealed {variant}")));
        }
    }
}
