//! Apocalypse behind the rules interface the sessions, the referee and the GUI use.

use super::{GEOMETRY, Judgement, Move, Position, Rules};
use crate::board::FenError;
use crate::geometry::{Geometry, Square};
use crate::notation::WireMove;
use crate::rules::End;
use crate::variant::Side;

/// A sealed turn as [`crate::rules::GameRules::play`] takes it: each side's judged move.
pub(crate) type JointTurn = (Judgement, Judgement);

impl crate::rules::GameRules for Position {
    type RuleSet = Rules;
    type Move = Move;
    type Turn = JointTurn;

    fn start(set: Rules) -> Position {
        Position::start(set)
    }

    fn from_fen(set: Rules, fen: &str) -> Result<Position, FenError> {
        Position::from_fen(set, fen)
    }

    fn variant(&self) -> crate::variant::Variant {
        match self.rules {
            Rules::Seed => crate::variant::Variant::Apocalypse,
            Rules::Classic => crate::variant::Variant::ApocalypseClassic,
        }
    }

    fn geometry(&self) -> &'static Geometry {
        &GEOMETRY
    }

    fn fen(&self) -> String {
        self.fen()
    }

    fn side_to_move(&self) -> Option<Side> {
        None
    }

    fn piece_at(&self, sq: Square) -> Option<char> {
        self.piece_at(sq)
    }

    fn end(&self) -> Option<End> {
        self.end()
    }

    fn legal_moves(&self, side: Side, out: &mut Vec<Move>) {
        self.legal_moves(side, out);
    }

    fn wire(mv: Move) -> WireMove {
        mv.to_wire()
    }

    fn legal_turns(&self, out: &mut Vec<JointTurn>) {
        out.clear();
        if self.end().is_some() {
            return;
        }
        let (mut white, mut black) = (Vec::new(), Vec::new());
        self.legal_moves(Side::White, &mut white);
        self.legal_moves(Side::Black, &mut black);
        out.extend(
            white
                .iter()
                .flat_map(|&w| black.iter().map(move |&b| (Ok(w), Ok(b)))),
        );
    }

    fn count_turns(&self) -> u64 {
        if self.end().is_some() {
            return 0;
        }
        let mut moves = Vec::new();
        self.legal_moves(Side::White, &mut moves);
        let white = moves.len() as u64;
        self.legal_moves(Side::Black, &mut moves);
        white * moves.len() as u64
    }

    fn read_turn(
        &self,
        turn: &crate::notation::WireTurn,
    ) -> Result<(JointTurn, Vec<crate::rules::Penalty>), crate::rules::GameError> {
        use crate::rules::{GameError, Penalty};
        let crate::notation::WireTurn::Joint(w, b) = turn else {
            return Err(GameError::NeedsJoint(turn.clone()));
        };
        let judge = |side, mv: &WireMove| {
            self.judge(side, mv)
                .map_err(|_| GameError::NotAMove(mv.to_string()))
        };
        let (jw, jb) = (judge(Side::White, w)?, judge(Side::Black, b)?);
        let penalties = [(Side::White, w, jw), (Side::Black, b, jb)]
            .into_iter()
            .filter_map(|(side, mv, j)| {
                j.err().map(|why| Penalty {
                    side,
                    mv: mv.to_string(),
                    reason: why.reason(),
                })
            })
            .collect();
        Ok(((jw, jb), penalties))
    }

    fn play(&self, (white, black): JointTurn) -> Position {
        self.resolve(white, black)
    }

    fn status_lines(&self) -> Vec<String> {
        vec![format!(
            "Penalties: {} {}",
            self.penalties(Side::White),
            self.penalties(Side::Black)
        )]
    }

    fn penalty_points(&self) -> [u8; 2] {
        [self.penalties(Side::White), self.penalties(Side::Black)]
    }
}

impl crate::rules::XboardCodec for Position {
    fn setup(_: Rules) -> crate::rules::XboardSetup {
        crate::rules::XboardSetup {
            piece_to_char: "PN....................pn....................",
            parent: "0_fairy",
            betza: &[('N', "N"), ('P', "fmWfcF")],
            plies: false,
        }
    }
}
