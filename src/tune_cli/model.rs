//! The evaluations `quill tune` can fit: each linear in its weights, behind one small trait.

use std::ops::RangeInclusive;

use quill::rules::GameRules;
use quill::search::Searchable;
use quill::simsearch::eval as sealed;
use quill::variant::{Side, Variant};
use quill::variants::{apocalypse, gladiator, gladiator_play, pagan, pagan_play};

/// An evaluation as the fit sees it: `(fixed + terms · w) / divisor` for weights `w`.
pub(super) struct Linear {
    /// The part no weight scales.
    pub(super) fixed: i32,
    /// The terms, in the order of [`Tunable::NAMES`].
    pub(super) terms: Vec<i32>,
    /// A fixed factor that divides the whole (1 for most positions; Pagan's `DRAWISH` where
    /// the side ahead cannot win, `THIN` where it has no unit to spare).
    pub(super) divisor: i32,
}

impl Linear {
    /// An evaluation with no divisor.
    fn plain(fixed: i32, terms: Vec<i32>) -> Linear {
        Linear {
            fixed,
            terms,
            divisor: 1,
        }
    }
}

/// An evaluation that `quill tune` fits: on a position, a fixed part plus the dot product of
/// its terms with the weights, in centipawns (hundredths of the variant's unit piece) for the
/// side [`Tunable::view`] names.
pub(super) trait Tunable: GameRules<RuleSet: PartialEq + std::fmt::Debug> {
    /// The weights' names, in the order of [`Tunable::current`].
    const NAMES: &'static [&'static str];
    /// The `K` at which `σ(K·e/400)` is the search's own reading of an evaluation `e` as an
    /// expected result, when it has one (the sealed search's payoffs); `None` for a search
    /// that only orders evaluations.
    const SEARCH_K: Option<f64>;

    /// The rule set of this family that a PGN's `[Variant]` names, `None` for another family.
    fn rule_set(variant: Variant) -> Option<Self::RuleSet>;
    /// The rule set whose weights the engine plays `set` with (games of one run must share
    /// it).
    fn weight_set(set: Self::RuleSet) -> Self::RuleSet;
    /// The weights the engine plays `set` with.
    fn current(set: Self::RuleSet) -> Vec<i32>;
    /// The values weight `i` may take (a fixed weight, such as the unit piece's, has one).
    fn range(i: usize) -> RangeInclusive<i32>;
    /// Whether the position is fitted: a quiet one where the evaluation is meant to hold.
    fn quiet(&self) -> bool;
    /// The side the evaluation is for.
    fn view(&self) -> Side;
    /// The evaluation under weights `w`: the part no weight scales, the terms, the divisor.
    fn terms(&self, w: &[i32]) -> Linear;
    /// The weights `w` for `set`, as the source declares them.
    fn show(set: Self::RuleSet, w: &[i32]) -> String;
}

/// Gladiator's and Brawl's evaluation ([`gladiator_play::EvalWeights`]), for the side to move;
/// the pawn (100) and the tempo are fixed.
impl Tunable for gladiator::Position {
    const NAMES: &'static [&'static str] = &gladiator_play::EvalWeights::NAMES;
    const SEARCH_K: Option<f64> = None;

    fn rule_set(variant: Variant) -> Option<gladiator::Rules> {
        match variant {
            Variant::Gladiator => Some(gladiator::Rules::Gladiator),
            Variant::Brawl => Some(gladiator::Rules::Brawl),
            Variant::Apocalypse | Variant::ApocalypseClassic | Variant::Pagan => None,
        }
    }

    /// Gladiator and Brawl each have their own weights.
    fn weight_set(set: gladiator::Rules) -> gladiator::Rules {
        set
    }

    fn current(set: gladiator::Rules) -> Vec<i32> {
        gladiator_play::weights(set).to_array().to_vec()
    }

    fn range(_: usize) -> RangeInclusive<i32> {
        -1000..=1000
    }

    fn quiet(&self) -> bool {
        without_noisy_moves(self)
    }

    fn view(&self) -> Side {
        self.side_to_move()
    }

    fn terms(&self, w: &[i32]) -> Linear {
        let weights = gladiator_weights(self.rules(), w);
        Linear::plain(
            100 * self.pawn_difference() + weights.tempo,
            self.eval_terms(&weights).to_vec(),
        )
    }

    fn show(set: gladiator::Rules, w: &[i32]) -> String {
        let name = match set {
            gladiator::Rules::Gladiator => "WEIGHTS",
            gladiator::Rules::Brawl => "BRAWL_WEIGHTS",
        };
        format!("{name} = {:#?}", gladiator_weights(set, w))
    }
}

/// Whether an alternating search has no noisy move (capture, or Pagan's check of a dead king)
/// to look at in the position: a quiet one.
fn without_noisy_moves<P: Searchable>(p: &P) -> bool {
    let mut noisy = Vec::new();
    p.noisy(&mut noisy);
    noisy.is_empty()
}

/// The list `current` with its first entries replaced by `w`'s.
fn overlay<const N: usize>(mut current: [i32; N], w: &[i32]) -> [i32; N] {
    for (to, from) in current.iter_mut().zip(w) {
        *to = *from;
    }
    current
}

/// Gladiator's or Brawl's weights (`set`'s) from a list (the current ones where `w` falls
/// short), with the current tempo.
fn gladiator_weights(set: gladiator::Rules, w: &[i32]) -> gladiator_play::EvalWeights {
    let current = gladiator_play::weights(set);
    let list = overlay(current.to_array(), w);
    gladiator_play::EvalWeights::from_array(list, current.tempo)
}

/// Apocalypse's static estimate ([`sealed::Weights`]; both rule sets), for White; the
/// footman (100) is fixed, the unit of the others.
impl Tunable for apocalypse::Position {
    const NAMES: &'static [&'static str] = &sealed::Weights::NAMES;
    /// The search's payoff is `1/(1 + e^(−0.8·d))` for a balance of `d` footmen.
    const SEARCH_K: Option<f64> = Some(3.2);

    fn rule_set(variant: Variant) -> Option<apocalypse::Rules> {
        match variant {
            Variant::Apocalypse => Some(apocalypse::Rules::Seed),
            Variant::ApocalypseClassic => Some(apocalypse::Rules::Classic),
            Variant::Gladiator | Variant::Brawl | Variant::Pagan => None,
        }
    }

    /// Each rule set has its own weights.
    fn weight_set(set: apocalypse::Rules) -> apocalypse::Rules {
        set
    }

    fn current(set: apocalypse::Rules) -> Vec<i32> {
        sealed::weights(set).to_array().to_vec()
    }

    /// Each weight keeps the sign its term's meaning gives it (a penalty point never helps).
    fn range(i: usize) -> RangeInclusive<i32> {
        match sealed::Weights::NAMES[i] {
            "footman" => 100..=100,
            "horseman" => 0..=400,
            "advance" | "mobility" => -50..=50,
            _ => -400..=0,
        }
    }

    /// Every position of more than `sealed::ENDGAME_PIECES` pieces: a sealed turn has no
    /// quiescence (captures are guesses at the other side's move), and the threat terms
    /// score what the next turn may take. Smaller ones are valued by the endgame weights,
    /// fitted to exact values (`examples/fit_endgame.rs`), not by the set fitted here.
    fn quiet(&self) -> bool {
        !sealed::in_endgame(self)
    }

    fn view(&self) -> Side {
        Side::White
    }

    fn terms(&self, _: &[i32]) -> Linear {
        Linear::plain(0, sealed::eval_terms(self).to_vec())
    }

    fn show(set: apocalypse::Rules, w: &[i32]) -> String {
        let list = overlay(sealed::weights(set).to_array(), w);
        let name = match set {
            apocalypse::Rules::Seed => "SEED_WEIGHTS",
            apocalypse::Rules::Classic => "CLASSIC_WEIGHTS",
        };
        format!("{name} = {:#?}", sealed::Weights::from_array(list))
    }
}

/// Pagan's evaluation ([`pagan_play::Weights`]), for the side to move; the live pawn (100)
/// and the tempo are fixed, and so is the factor `pagan_play::DRAWISH` that divides the
/// edge of a side that cannot win (which side is ahead is judged under the weights given).
impl Tunable for pagan::Position {
    const NAMES: &'static [&'static str] = &pagan_play::Weights::NAMES;
    const SEARCH_K: Option<f64> = None;

    fn rule_set(variant: Variant) -> Option<()> {
        match variant {
            Variant::Pagan => Some(()),
            Variant::Apocalypse
            | Variant::ApocalypseClassic
            | Variant::Gladiator
            | Variant::Brawl => None,
        }
    }

    fn weight_set(_: ()) {}

    fn current(_: ()) -> Vec<i32> {
        pagan_play::WEIGHTS.to_array().to_vec()
    }

    /// Each weight keeps the sign its term's meaning gives it: material and the hunt help, a
    /// dead Pagan is worth a little less than a live one, an exposed king costs.
    fn range(i: usize) -> RangeInclusive<i32> {
        match pagan_play::Weights::NAMES[i] {
            "wazir" | "alchemist" | "pagan" => 50..=1000,
            "dead_pagan" | "exposure" | "attacked" | "attacked_exposure" => -400..=0,
            _ => 0..=400,
        }
    }

    fn quiet(&self) -> bool {
        without_noisy_moves(self)
    }

    fn view(&self) -> Side {
        self.side_to_move()
    }

    fn terms(&self, w: &[i32]) -> Linear {
        let e = self.eval_terms(&pagan_weights(w));
        Linear {
            fixed: e.fixed,
            terms: e.terms.to_vec(),
            divisor: e.divisor,
        }
    }

    fn show(_: (), w: &[i32]) -> String {
        format!("WEIGHTS = {:#?}", pagan_weights(w))
    }
}

/// Pagan's weights from a list (the current ones where `w` falls short), with the current
/// tempo.
fn pagan_weights(w: &[i32]) -> pagan_play::Weights {
    let list = overlay(pagan_play::WEIGHTS.to_array(), w);
    pagan_play::Weights::from_array(list, pagan_play::WEIGHTS.tempo)
}
