//! Gladiator's turns on the wire: reading a written turn, and the variant's `GameRules`.

use super::*;

impl Position {
    /// Reads a written turn and checks it: the pawn's leg (compulsory when a pawn can move),
    /// the placing of the piece it displaced, then at most one supporter's leg.
    ///
    /// # Errors
    /// A [`Refusal`] saying what is wrong.
    pub fn parse_turn(&self, mv: &WireMove) -> Result<Turn, Refusal> {
        let WireMove::Legs { legs, promotion } = mv else {
            return Err(Refusal::PassOrDrop("turn"));
        };
        if promotion.is_some() {
            return Err(Refusal::NoPromotion);
        }
        let squares = board_legs(legs)?;
        let pawn = self.read_pawn_legs(&squares)?;
        self.read_supporter_leg(pawn, legs.len())
    }

    /// Reads the pawn's leg and, when the pawn displaced a piece, the leg that places it.
    fn read_pawn_legs<'a>(&self, squares: &'a [(u8, u8)]) -> Result<PawnPart<'a>, Refusal> {
        let mut turn = Turn {
            pawn: (NONE, NONE),
            place: NONE,
            support: (NONE, NONE),
        };
        let me = self.to_move.index();
        let own_pawn = |sq: u8| self.sides[me] & self.kinds[0] & bit(sq) != 0;
        let Some(&(f, t)) = squares.first().filter(|&&(f, _)| own_pawn(f)) else {
            if self.has_pawn_move() {
                return Err(Refusal::PawnCompulsory);
            }
            return Ok(PawnPart {
                turn,
                after: self.clone(),
                rest: squares,
            });
        };
        if self.pawn_targets(f) & bit(t) == 0 {
            return Err(Refusal::PawnCannotGo {
                from: square_of(f),
                to: square_of(t),
            });
        }
        let (mut pos, displaced) = self.after_pawn(f, t);
        turn.pawn = (f, t);
        let mut rest = &squares[1..];
        if let Some(kind) = displaced {
            let Some(&(_, pt)) = rest.first().filter(|(pf, _)| *pf == t) else {
                return Err(Refusal::MustPlace(square_of(t)));
            };
            if pos.occupied() & bit(pt) != 0 {
                return Err(Refusal::NotVacant(square_of(pt)));
            }
            pos.place(kind, pt);
            turn.place = pt;
            rest = &rest[1..];
        }
        Ok(PawnPart {
            turn,
            after: pos,
            rest,
        })
    }

    /// Reads what is left after the pawn's legs: none, or one supporter's leg; `legs` is how
    /// many legs the whole turn had.
    fn read_supporter_leg(&self, pawn: PawnPart, legs: usize) -> Result<Turn, Refusal> {
        let PawnPart {
            mut turn,
            after,
            rest,
        } = pawn;
        let &[(f, t)] = rest else {
            return match rest {
                [] if turn.moves_pawn() => Ok(turn),
                [] => Err(Refusal::SupporterMustMove),
                _ => Err(Refusal::TooManyLegs(legs)),
            };
        };
        let legal = if turn.moves_pawn() {
            let mut moves = Vec::new();
            after.supporter_moves(&mut moves);
            moves.contains(&(f, t))
        } else {
            self.forced_supporter_moves().contains(&(f, t))
        };
        if !legal {
            let what = match self.rules {
                Rules::Gladiator => "a jump of an own supporter to a vacant border square",
                Rules::Brawl => "a non-capturing move of an own supporter",
            };
            return Err(Refusal::BadSupporter {
                leg: Leg {
                    from: square_of(f),
                    to: square_of(t),
                },
                what,
                must_free_pawn: !turn.moves_pawn(),
            });
        }
        turn.support = (f, t);
        Ok(turn)
    }
}

/// A turn read as far as its pawn's legs.
struct PawnPart<'a> {
    /// The turn so far.
    turn: Turn,
    /// The position after the pawn's legs (the position itself when the pawn did not move).
    after: Position,
    /// The legs left, as board indices.
    rest: &'a [(u8, u8)],
}

/// Each leg's squares as board indices.
///
/// # Errors
/// A leg off the board.
fn board_legs(legs: &[Leg]) -> Result<Vec<(u8, u8)>, Refusal> {
    legs.iter()
        .map(
            |leg| match (GEOMETRY.index(leg.from), GEOMETRY.index(leg.to)) {
                (Some(f), Some(t)) => Ok((f as u8, t as u8)),
                _ => Err(Refusal::OffBoard(*leg, "board")),
            },
        )
        .collect()
}

impl crate::rules::GameRules for Position {
    type RuleSet = Rules;
    type Move = Turn;
    type Turn = Turn;

    fn start(set: Rules) -> Position {
        Position::start(set)
    }

    fn from_fen(set: Rules, fen: &str) -> Result<Position, FenError> {
        Position::from_fen(set, fen)
    }

    fn variant(&self) -> crate::variant::Variant {
        match self.rules {
            Rules::Gladiator => crate::variant::Variant::Gladiator,
            Rules::Brawl => crate::variant::Variant::Brawl,
        }
    }

    fn geometry(&self) -> &'static Geometry {
        &GEOMETRY
    }

    fn fen(&self) -> String {
        self.fen()
    }

    fn side_to_move(&self) -> Option<Side> {
        Some(self.to_move)
    }

    fn piece_at(&self, sq: Square) -> Option<char> {
        self.piece_at(sq)
    }

    fn end(&self) -> Option<End> {
        self.end()
    }

    fn legal_moves(&self, side: Side, out: &mut Vec<Turn>) {
        out.clear();
        if side == self.to_move {
            self.for_each_turn(|t| out.push(t));
        }
    }

    fn wire(mv: Turn) -> WireMove {
        mv.to_wire()
    }

    fn legal_turns(&self, out: &mut Vec<Turn>) {
        out.clear();
        if self.end().is_none() {
            self.for_each_turn(|t| out.push(t));
        }
    }

    fn count_turns(&self) -> u64 {
        if self.end().is_some() {
            0
        } else {
            self.count_turns()
        }
    }

    fn read_turn(
        &self,
        turn: &crate::notation::WireTurn,
    ) -> Result<(Turn, Vec<crate::rules::Penalty>), crate::rules::GameError> {
        crate::rules::read_single(self, turn, |mv| self.parse_turn(mv))
    }

    fn play(&self, turn: Turn) -> Position {
        self.play(turn)
    }

    fn search_key(&self) -> Option<u64> {
        Some(crate::search::Searchable::key(self))
    }
}
