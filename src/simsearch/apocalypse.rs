//! Apocalypse as the sealed search sees it: its [`SealedRules`] implementation (moves,
//! resolution, the evaluation of [`super::eval`]), its table key and the tablebase probe its
//! searches consult. A second sealed variant would be one more file like this one.

use super::rules::{SealedRules, SharedProbe};
use crate::notation::WireMove;
use crate::variant::Side;
use crate::variants::apocalypse::{Move, Position, Rules};

impl SealedRules for Position {
    type Move = Move;

    fn moves(&self, side: Side, out: &mut Vec<Move>) {
        self.legal_moves(side, out);
    }

    fn joint(&self, white: Move, black: Move) -> Position {
        self.play(white, black)
    }

    fn terminal(&self) -> Option<f64> {
        super::eval::terminal(self)
    }

    fn heuristic(&self) -> f64 {
        super::eval::heuristic(self)
    }

    fn joint_payoff(&self, white: Move, black: Move) -> f64 {
        super::eval::after(self, white, black)
    }

    type Frontier = super::eval::Frontier;

    fn prepare_frontier(&self, white: &[Move], black: &[Move], f: &mut Self::Frontier) {
        f.prepare(self, white, black);
    }

    #[inline]
    fn frontier_payoff(
        &self,
        f: &mut Self::Frontier,
        white: (usize, Move),
        black: (usize, Move),
    ) -> f64 {
        super::eval::frontier_payoff(self, f, white, black)
    }

    #[inline(always)]
    fn frontier_payoff_inline(
        &self,
        f: &mut Self::Frontier,
        white: (usize, Move),
        black: (usize, Move),
    ) -> f64 {
        super::eval::frontier_cell(self, f, white, black)
    }

    fn key(&self) -> u64 {
        key(self)
    }

    fn wire(mv: Move) -> WireMove {
        mv.to_wire()
    }

    fn shared_probe(builtin: bool) -> Option<SharedProbe<Position>> {
        active_probe(builtin)
    }
}

/// A 64-bit key of everything a position's value depends on: both sides' footmen and
/// horsemen, the penalty points and the rule set. The quiet-turn count and the turn number
/// are left out on purpose: no rule reads them, so positions that differ only there have the
/// same value.
pub fn key(p: &Position) -> u64 {
    let rules = match p.rules() {
        Rules::Seed => 0u64,
        Rules::Classic => 1,
    };
    let extra =
        rules | u64::from(p.penalties(Side::White)) << 1 | u64::from(p.penalties(Side::Black)) << 3;
    let a =
        u64::from(p.footmen(Side::White)) | u64::from(p.footmen(Side::Black)) << 25 | extra << 50;
    let b = u64::from(p.horsemen(Side::White)) | u64::from(p.horsemen(Side::Black)) << 25;
    mix(a ^ mix(b ^ 0x9e37_79b9_7f4a_7c15))
}

/// The SplitMix64 finaliser: a bijection of 64-bit words that spreads every input bit.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The probes the sealed searches of Apocalypse consult now: the loaded tables alone, and the
/// loaded tables over the built-in ones. They live here, not with the tablebase, so that the
/// search depends on no table format: the tablebase sets them, the search reads them.
static ACTIVE: std::sync::RwLock<Probes> = std::sync::RwLock::new(Probes {
    loaded: None,
    with_builtin: None,
});

/// The two probes of [`ACTIVE`].
pub(crate) struct Probes {
    /// The loaded tables (`TablebasePath`), if any.
    pub(crate) loaded: Option<SharedProbe>,
    /// The loaded tables, then the built-in ones; `None` until tables are loaded (the
    /// built-in ones alone are then asked, [`crate::tablebase::builtin::probe`]).
    pub(crate) with_builtin: Option<SharedProbe>,
}

/// Makes `probes` the ones every later sealed search of Apocalypse consults.
pub(crate) fn set_probe(probes: Probes) {
    *ACTIVE
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = probes;
}

/// The probe a search consults: with `builtin` the loaded tables over the built-in ones,
/// else the loaded ones, if any.
fn active_probe(builtin: bool) -> Option<SharedProbe> {
    let probes = ACTIVE
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if builtin {
        Some(
            probes
                .with_builtin
                .clone()
                .unwrap_or_else(crate::tablebase::builtin::probe),
        )
    } else {
        probes.loaded.clone()
    }
}
