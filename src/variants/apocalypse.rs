//! Apocalypse, both rule sets: `protocol-docs/rules.md` §1 (see `protocol-docs/variants/apocalypse.md`).
//!
//! The board is 5x5; a square is a bit `rank0 * 5 + file` of a `u32`. A turn is two sealed
//! moves judged on the position at the start of the turn and resolved together.

use std::fmt::Write as _;

use crate::board::{FenError, bits};
use crate::geometry::{Geometry, Square};
use crate::notation::WireMove;
use crate::variant::Side;

/// Board geometry of Apocalypse.
pub(crate) const GEOMETRY: Geometry = Geometry::new(5, 5);
/// The start position.
pub(crate) const START_FEN: &str = "npppn/p3p/5/P3P/NPPPN w - - 0 1 0/0";

const ALL: u32 = (1 << 25) - 1;
const FILE_A: u32 = 0b00001_00001_00001_00001_00001;
const FILE_E: u32 = FILE_A << 4;
const RANK_1: u32 = 0b11111;
const RANK_5: u32 = RANK_1 << 20;
const NONE: u8 = u8::MAX;

/// Which rule set applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rules {
    /// The seed rules (`apocalypse`): a stuck footman on the far rank, passes allowed.
    Seed,
    /// Elliott's rules (`apocalypse-classic`): redeploy instead of staying, no passes.
    Classic,
}

/// A kind of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A footman (pawn).
    Footman,
    /// A horseman (knight).
    Horseman,
}

/// A legal move of one side: a pass, or a step with an optional redeploy square (classic).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    from: u8,
    to: u8,
    redeploy: u8,
}

impl Move {
    /// The pass (`0000`).
    pub(crate) const PASS: Move = Move {
        from: NONE,
        to: NONE,
        redeploy: NONE,
    };

    /// Whether this is the pass.
    pub(crate) fn is_pass(self) -> bool {
        self.from == NONE
    }

    /// The wire form of the move.
    pub(crate) fn to_wire(self) -> WireMove {
        if self.is_pass() {
            return WireMove::Pass;
        }
        let mut legs = vec![crate::notation::Leg {
            from: square_of(self.from),
            to: square_of(self.to),
        }];
        if self.redeploy != NONE {
            legs.push(crate::notation::Leg {
                from: square_of(self.to),
                to: square_of(self.redeploy),
            });
        }
        WireMove::Legs {
            legs,
            promotion: None,
        }
    }
}

impl std::fmt::Display for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.to_wire())
    }
}

fn square_of(index: u8) -> Square {
    GEOMETRY.square(usize::from(index))
}

fn index_of(sq: Square) -> Option<u8> {
    GEOMETRY.index(sq).map(|i| i as u8)
}

const fn knight_table() -> [u32; 25] {
    let mut table = [0u32; 25];
    let jumps: [(i32, i32); 8] = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    let mut sq = 0;
    while sq < 25 {
        let (f, r) = ((sq % 5) as i32, (sq / 5) as i32);
        let mut j = 0;
        while j < 8 {
            let (nf, nr) = (f + jumps[j].0, r + jumps[j].1);
            if nf >= 0 && nf < 5 && nr >= 0 && nr < 5 {
                table[sq] |= 1 << (nr * 5 + nf);
            }
            j += 1;
        }
        sq += 1;
    }
    table
}

/// Horseman targets of each square, as a 25-bit set.
pub(crate) const KNIGHT: [u32; 25] = knight_table();

pub(crate) use crate::rules::End;

/// Why a written move is not legal (it still is a valid token and costs a penalty).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// A square lies off the board.
    OffBoard,
    /// The from-square holds no piece of the mover.
    NotYourPiece,
    /// The piece cannot make that move in this position.
    CannotMove,
    /// A redeploy leg is missing, misplaced or not allowed.
    BadRedeploy,
    /// A pass while a legal move exists (or any pass in the classic rules).
    BadPass,
}

impl Illegal {
    /// A short explanation for messages.
    pub(crate) fn reason(self) -> &'static str {
        match self {
            Illegal::OffBoard => "a square is off the board",
            Illegal::NotYourPiece => "no piece of the mover on the from-square",
            Illegal::CannotMove => "the piece cannot make that move",
            Illegal::BadRedeploy => "redeploy leg missing, misplaced or not allowed",
            Illegal::BadPass => "a pass while a legal move exists",
        }
    }
}

/// What a written move means in a position: a legal move, or an illegal one with its reason.
pub(crate) type Judgement = Result<Move, Illegal>;

/// A token that is not an Apocalypse move at all (three or more legs, or a promotion letter):
/// a protocol error, not a penalty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NotAMove;

/// An Apocalypse position: pieces, penalty points and counters.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    rules: Rules,
    footmen: [u32; 2],
    horsemen: [u32; 2],
    penalties: [u8; 2],
    quiet: u32,
    turn: u32,
}

impl Position {
    /// The start position of a rule set.
    pub fn start(rules: Rules) -> Position {
        Position::from_fen(rules, START_FEN).expect("the start FEN is valid")
    }

    /// A position from its pieces (bit `rank0 * 5 + file` per square, White first) and
    /// penalty points, with the counters at their FEN defaults (for the tablebase, which
    /// enumerates positions). Pieces on two lists at once are the caller's error.
    pub(crate) fn from_parts(
        rules: Rules,
        footmen: [u32; 2],
        horsemen: [u32; 2],
        penalties: [u8; 2],
    ) -> Position {
        Position {
            rules,
            footmen: footmen.map(|b| b & ALL),
            horsemen: horsemen.map(|b| b & ALL),
            penalties,
            quiet: 0,
            turn: 1,
        }
    }

    /// The rule set.
    pub(crate) fn rules(&self) -> Rules {
        self.rules
    }

    /// Penalty points of a side.
    pub(crate) fn penalties(&self, side: Side) -> u8 {
        self.penalties[side.index()]
    }

    /// The turn number (FEN full-move field).
    pub fn turn_number(&self) -> u32 {
        self.turn
    }

    /// Footmen bitboard of a side.
    pub(crate) fn footmen(&self, side: Side) -> u32 {
        self.footmen[side.index()]
    }

    /// Horsemen bitboard of a side.
    pub(crate) fn horsemen(&self, side: Side) -> u32 {
        self.horsemen[side.index()]
    }

    /// Sum over a side's footmen of the ranks they have advanced from their own back rank.
    #[cfg(test)]
    pub(crate) fn footman_advance(&self, side: Side) -> u32 {
        let mut f = self.footmen[side.index()];
        let mut total = 0;
        while f != 0 {
            let rank = f.trailing_zeros() / 5;
            total += if side == Side::White { rank } else { 4 - rank };
            f &= f - 1;
        }
        total
    }

    /// Number of (horseman, target) pairs of a side's horsemen, friendly squares excluded.
    #[cfg(test)]
    pub(crate) fn horseman_mobility(&self, side: Side) -> u32 {
        let s = side.index();
        let mut h = self.horsemen[s];
        let mut total = 0;
        while h != 0 {
            total += (KNIGHT[h.trailing_zeros() as usize] & !self.occupied(s)).count_ones();
            h &= h - 1;
        }
        total
    }

    fn occupied(&self, s: usize) -> u32 {
        self.footmen[s] | self.horsemen[s]
    }

    /// The piece on a square, as its FEN letter.
    pub(crate) fn piece_at(&self, sq: Square) -> Option<char> {
        let bit = 1u32 << index_of(sq)?;
        [
            (self.footmen[0], 'P'),
            (self.horsemen[0], 'N'),
            (self.footmen[1], 'p'),
            (self.horsemen[1], 'n'),
        ]
        .into_iter()
        .find(|(bb, _)| bb & bit != 0)
        .map(|(_, c)| c)
    }

    /// Parses a FEN: board, then optionally `w - - QUIET TURN W/B` (defaults `w - - 0 1 0/0`).
    ///
    /// # Errors
    /// A message naming the first bad field.
    pub fn from_fen(rules: Rules, fen: &str) -> Result<Position, FenError> {
        let fields = crate::board::fen_fields(fen, 7)?;
        let mut pos = Position {
            rules,
            footmen: [0; 2],
            horsemen: [0; 2],
            penalties: [0; 2],
            quiet: 0,
            turn: 1,
        };
        crate::board::read_board(&GEOMETRY, fields[0], |sq, c| {
            let bit = 1u32 << index_of(sq).expect("a square of the board");
            match c {
                'P' => pos.footmen[0] |= bit,
                'N' => pos.horsemen[0] |= bit,
                'p' => pos.footmen[1] |= bit,
                'n' => pos.horsemen[1] |= bit,
                _ => {
                    return Err(FenError::NotAPiece {
                        letter: c,
                        expected: "an Apocalypse piece (N P n p)",
                    });
                }
            }
            Ok(())
        })?;
        let tail = crate::board::fen_tail(&fields, true)?;
        pos.quiet = tail.counter;
        pos.turn = tail.number;
        if let Some(&f) = fields.get(6) {
            let parsed = f.split_once('/').and_then(|(w, b)| {
                let p = |s: &str| s.parse::<u8>().ok().filter(|&n| n <= 2 && s.len() == 1);
                Some([p(w)?, p(b)?])
            });
            pos.penalties = parsed.ok_or_else(|| FenError::Penalties(f.to_string()))?;
        }
        Ok(pos)
    }

    /// The FEN, all seven fields.
    pub fn fen(&self) -> String {
        let mut out = crate::board::board_text(&GEOMETRY, |sq| self.piece_at(sq));
        write!(
            out,
            " w - - {} {} {}/{}",
            self.quiet, self.turn, self.penalties[0], self.penalties[1]
        )
        .unwrap();
        out
    }

    /// Appends the legal moves of a side (a forced pass in the seed rules; nothing in the
    /// classic rules when the side is stuck) to `out`, which is cleared first.
    pub fn legal_moves(&self, side: Side, out: &mut Vec<Move>) {
        out.clear();
        self.generate(side.index(), out);
        if out.is_empty() && self.rules == Rules::Seed {
            out.push(Move::PASS);
        }
    }

    /// Whether the side has a move other than a pass.
    pub(crate) fn has_move(&self, side: Side) -> bool {
        let s = side.index();
        let o = 1 - s;
        let occ = self.occupied(0) | self.occupied(1);
        let f = self.footmen[s];
        let (fwd, capl, capr) = footman_targets(s, f);
        let mut targets = (fwd & !occ) | ((capl | capr) & self.occupied(o));
        // A classic lone footman may not advance to the far rank with fewer than 2 horsemen
        // (with 2 it always has a redeploy square: its own origin).
        if self.rules == Rules::Classic && f.count_ones() == 1 && self.horsemen[s].count_ones() < 2
        {
            targets &= !if s == 0 { RANK_5 } else { RANK_1 };
        }
        if targets != 0 {
            return true;
        }
        let mut h = self.horsemen[s];
        while h != 0 {
            let sq = h.trailing_zeros() as usize;
            if KNIGHT[sq] & !self.occupied(s) != 0 {
                return true;
            }
            h &= h - 1;
        }
        false
    }

    fn generate(&self, s: usize, out: &mut Vec<Move>) {
        let o = 1 - s;
        let own = self.occupied(s);
        let enemy = self.occupied(o);
        let occ = own | enemy;
        let far = if s == 0 { RANK_5 } else { RANK_1 };
        let few_horsemen = self.horsemen[s].count_ones() < 2;
        let lone = self.footmen[s].count_ones() == 1;
        let mut f = self.footmen[s];
        while f != 0 {
            let from = f.trailing_zeros();
            f &= f - 1;
            let (fwd, capl, capr) = footman_targets(s, 1 << from);
            let targets = (fwd & !occ) | ((capl | capr) & enemy);
            let mut t = targets;
            while t != 0 {
                let to = t.trailing_zeros();
                t &= t - 1;
                let promotes = far >> to & 1 == 1;
                if !promotes || few_horsemen || self.rules == Rules::Seed {
                    if promotes && few_horsemen && lone && self.rules == Rules::Classic {
                        continue;
                    }
                    out.push(Move {
                        from: from as u8,
                        to: to as u8,
                        redeploy: NONE,
                    });
                } else {
                    // Classic with two horsemen: redeploy to a square vacant once the footman
                    // has left, not on the far rank.
                    let vacant = (!occ | 1 << from) & ALL & !far;
                    out.extend(bits(u64::from(vacant)).map(|q| Move {
                        from: from as u8,
                        to: to as u8,
                        redeploy: q,
                    }));
                }
            }
        }
        for from in bits(u64::from(self.horsemen[s])) {
            out.extend(
                bits(u64::from(KNIGHT[usize::from(from)] & !own)).map(|to| Move {
                    from,
                    to,
                    redeploy: NONE,
                }),
            );
        }
    }

    /// Judges a written move of a side on this position.
    ///
    /// # Errors
    /// [`NotAMove`] when the text is not an Apocalypse move at all.
    pub(crate) fn judge(&self, side: Side, mv: &WireMove) -> Result<Judgement, NotAMove> {
        let mut legal = Vec::new();
        self.legal_moves(side, &mut legal);
        let (legs, promotion) = match mv {
            WireMove::Pass => {
                return Ok(if legal == [Move::PASS] {
                    Ok(Move::PASS)
                } else {
                    Err(Illegal::BadPass)
                });
            }
            WireMove::Drop { .. } => return Err(NotAMove),
            WireMove::Legs { legs, promotion } => (legs, promotion),
        };
        if legs.len() > 2 || promotion.is_some() {
            return Err(NotAMove);
        }
        let squares: Option<Vec<u8>> = legs
            .iter()
            .flat_map(|l| [l.from, l.to])
            .map(index_of)
            .collect();
        let Some(sq) = squares else {
            return Ok(Err(Illegal::OffBoard));
        };
        let s = side.index();
        if self.occupied(s) >> sq[0] & 1 == 0 {
            return Ok(Err(Illegal::NotYourPiece));
        }
        if sq.len() == 4 && sq[2] != sq[1] {
            return Ok(Err(Illegal::BadRedeploy));
        }
        let candidate = Move {
            from: sq[0],
            to: sq[1],
            redeploy: sq.get(3).copied().unwrap_or(NONE),
        };
        if legal.contains(&candidate) {
            return Ok(Ok(candidate));
        }
        // Name the fault: the step itself, or its redeploy leg.
        let step_ok = legal
            .iter()
            .any(|m| m.from == candidate.from && m.to == candidate.to);
        Ok(Err(
            if step_ok || self.promotion_step_needs_redeploy(s, &candidate) {
                Illegal::BadRedeploy
            } else {
                Illegal::CannotMove
            },
        ))
    }

    fn promotion_step_needs_redeploy(&self, s: usize, m: &Move) -> bool {
        m.redeploy != NONE && {
            let single = Move {
                redeploy: NONE,
                ..*m
            };
            let mut moves = Vec::new();
            self.generate(s, &mut moves);
            moves.contains(&single)
        }
    }

    /// The game's end, if it has ended (end conditions first, then the no-legal-move draws).
    pub fn end(&self) -> Option<End> {
        let lost = |s: usize| {
            if self.footmen[s] == 0 {
                Some("no footmen left")
            } else if self.penalties[s] >= 2 {
                Some("two penalty points")
            } else {
                None
            }
        };
        match (lost(0), lost(1)) {
            (Some(_), Some(_)) => return Some(End::Draw("both players lost at once")),
            (Some(why), None) => return Some(End::Win(Side::Black, white_reason(why))),
            (None, Some(why)) => return Some(End::Win(Side::White, black_reason(why))),
            (None, None) => {}
        }
        let (w, b) = (self.has_move(Side::White), self.has_move(Side::Black));
        match self.rules {
            Rules::Seed if !w && !b => Some(End::Draw("neither player has a legal move")),
            Rules::Classic if !w || !b => Some(End::Draw("a player has no legal move")),
            _ => None,
        }
    }

    /// Plays one turn of judged moves and returns the next position. A void move (illegal)
    /// is passed as its [`Illegal`] and costs a penalty point.
    pub fn resolve(&self, white: Judgement, black: Judgement) -> Position {
        let mut next = self.clone();
        let moves = [
            white.ok().filter(|m| !m.is_pass()),
            black.ok().filter(|m| !m.is_pass()),
        ];
        for (s, j) in [white, black].iter().enumerate() {
            if j.is_err() {
                next.penalties[s] = next.penalties[s].saturating_add(1);
            }
        }
        let mut kinds = [Kind::Footman; 2];
        for s in 0..2 {
            if let Some(m) = moves[s] {
                let bit = 1u32 << m.from;
                kinds[s] = if self.footmen[s] & bit != 0 {
                    Kind::Footman
                } else {
                    Kind::Horseman
                };
                next.footmen[s] &= !bit;
                next.horsemen[s] &= !bit;
            }
        }
        let mut eventful = moves
            .iter()
            .zip(kinds)
            .any(|(m, k)| m.is_some() && k == Kind::Footman);
        // Captures: only of a piece that stayed on its square.
        for s in 0..2 {
            let o = 1 - s;
            if let Some(m) = moves[s] {
                let target = 1u32 << m.to;
                let escaped = moves[o].is_some_and(|om| om.from == m.to);
                if self.occupied(o) & target != 0 && !escaped {
                    next.footmen[o] &= !target;
                    next.horsemen[o] &= !target;
                    eventful = true;
                }
            }
        }
        let land = |m: Move| if m.redeploy == NONE { m.to } else { m.redeploy };
        let promoted = |s: usize, m: Move, kind: Kind| {
            let far = if s == 0 { RANK_5 } else { RANK_1 };
            kind == Kind::Footman
                && m.redeploy == NONE
                && far >> m.to & 1 == 1
                && self.horsemen[s].count_ones() < 2
        };
        let place = |next: &mut Position, s: usize, m: Move, kind: Kind| {
            let bit = 1u32 << land(m);
            if kind == Kind::Horseman || promoted(s, m, kind) {
                next.horsemen[s] |= bit;
            } else {
                next.footmen[s] |= bit;
            }
        };
        match moves {
            [Some(w), Some(b)] if land(w) == land(b) => {
                eventful = true;
                match kinds {
                    [Kind::Horseman, Kind::Footman] => place(&mut next, 0, w, Kind::Horseman),
                    [Kind::Footman, Kind::Horseman] => place(&mut next, 1, b, Kind::Horseman),
                    _ => {}
                }
            }
            _ => {
                for s in 0..2 {
                    if let Some(m) = moves[s] {
                        place(&mut next, s, m, kinds[s]);
                    }
                }
            }
        }
        next.quiet = if eventful { 0 } else { self.quiet + 1 };
        next.turn = self.turn.saturating_add(1);
        next
    }

    /// A text diagram, ranks from 5 down, as in `protocol-docs/rules.md`.
    pub(crate) fn diagram(&self) -> String {
        crate::board::diagram(&GEOMETRY, |sq| self.piece_at(sq))
    }
}

fn white_reason(why: &'static str) -> &'static str {
    match why {
        "no footmen left" => "White has no footmen left",
        _ => "White has two penalty points",
    }
}

fn black_reason(why: &'static str) -> &'static str {
    match why {
        "no footmen left" => "Black has no footmen left",
        _ => "Black has two penalty points",
    }
}

/// Forward, left-capture and right-capture targets of the footmen `f` of side `s`.
fn footman_targets(s: usize, f: u32) -> (u32, u32, u32) {
    if s == 0 {
        (
            (f << 5) & ALL,
            ((f & !FILE_A) << 4) & ALL,
            ((f & !FILE_E) << 6) & ALL,
        )
    } else {
        (f >> 5, (f & !FILE_A) >> 6, (f & !FILE_E) >> 4)
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_move;

    fn judge(p: &Position, side: Side, text: &str) -> Judgement {
        p.judge(side, &parse_move(text).unwrap()).unwrap()
    }

    #[test]
    fn start_has_nine_moves_each() {
        let p = Position::start(Rules::Seed);
        let mut moves = Vec::new();
        p.legal_moves(Side::White, &mut moves);
        assert_eq!(moves.len(), 9);
        p.legal_moves(Side::Black, &mut moves);
        assert_eq!(moves.len(), 9);
        assert_eq!(p.fen(), START_FEN);
    }

    #[test]
    fn judging_names_the_fault() {
        let p = Position::start(Rules::Seed);
        assert_eq!(judge(&p, Side::White, "z9a1"), Err(Illegal::OffBoard));
        assert_eq!(judge(&p, Side::White, "c3c4"), Err(Illegal::NotYourPiece));
        assert_eq!(judge(&p, Side::White, "a4a3"), Err(Illegal::NotYourPiece));
        assert_eq!(judge(&p, Side::White, "b1c2"), Err(Illegal::CannotMove));
        assert_eq!(judge(&p, Side::White, "0000"), Err(Illegal::BadPass));
        assert!(judge(&p, Side::White, "a1b3").is_ok());
        assert!(
            p.judge(Side::White, &parse_move("a1b3,b3c5,c5d3").unwrap())
                .is_err()
        );
    }

    /// `has_move` (the end test's shortcut) agrees with the generator, on every position
    /// of lone footmen facing up to two horsemen each (both rule sets, the classic far-rank
    /// rule included) and on positions of random play.
    #[test]
    fn has_move_agrees_with_the_generator() {
        let mut moves = Vec::new();
        let mut check = |p: &Position| {
            for side in [Side::White, Side::Black] {
                moves.clear();
                p.generate(side.index(), &mut moves);
                assert_eq!(p.has_move(side), !moves.is_empty(), "{} {side:?}", p.fen());
            }
        };
        for rules in [Rules::Seed, Rules::Classic] {
            for wf in 5..20 {
                for bf in 5..20 {
                    for wh in [0u32, 1 << 3, 1 << 7 | 1 << 18] {
                        for bh in [0u32, 1 << 21, 1 << 2 | 1 << 12] {
                            let taken = 1u32 << wf | 1 << bf;
                            if wf == bf || (wh | bh) & taken != 0 || wh & bh != 0 {
                                continue;
                            }
                            let (wf, bf) = (1 << wf, 1 << bf);
                            check(&Position::from_parts(rules, [wf, bf], [wh, bh], [0, 0]));
                        }
                    }
                }
            }
            let mut p = Position::start(rules);
            let mut x = 0x2545_f491u32;
            for _ in 0..2000 {
                check(&p);
                if p.end().is_some() {
                    p = Position::start(rules);
                    continue;
                }
                let mut pick = |side: Side| {
                    let mut m = Vec::new();
                    p.legal_moves(side, &mut m);
                    x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                    m[(x >> 8) as usize % m.len()]
                };
                let (w, b) = (pick(Side::White), pick(Side::Black));
                p = p.resolve(Ok(w), Ok(b));
            }
        }
    }
}
