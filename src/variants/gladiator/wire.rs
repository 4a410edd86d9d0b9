//! Gladiator's turns on the wire: reading a written turn, and the variant's `GameRules`.

use super::*;

impl Position {
    /// Reads a written turn and checks it.
    ///
    /// # Errors
    /// A [`Refusal`] saying what is wrong.
    pub fn parse_turn(&self, mv: &WireMove) -> Result<Turn, Refusal> {
        let refuse = Err;
        let WireMove::Legs { legs, promotion } = mv else {
            return refuse(Refusal::PassOrDrop("turn"));
        };
        if promotion.is_some() {
            return refuse(Refusal::NoPromotion);
        }
        let mut squares = Vec::with_capacity(legs.len());
        for leg in legs {
            match (GEOMETRY.index(leg.from), GEOMETRY.index(leg.to)) {
                (Some(f), Some(t)) => squares.push((f as u8, t as u8)),
                _ => return refuse(Refusal::OffBoard(*leg, "board")),
            }
        }
        let me = self.to_move.index();
        let mut rest = squares.as_slice();
        let mut turn = Turn {
            pawn: (NONE, NONE),
            place: NONE,
            support: (NONE, NONE),
        };
        let mut pos = self.clone();
        let own_pawn = |sq: u8| self.sides[me] & self.kinds[0] & bit(sq) != 0;
        if let Some(&(f, t)) = rest.first()
            && own_pawn(f)
        {
            if self.pawn_targets(f) & bit(t) == 0 {
                return refuse(Refusal::PawnCannotGo {
                    from: square_of(f),
                    to: square_of(t),
                });
            }
            let (after, displaced) = self.after_pawn(f, t);
            pos = after;
            turn.pawn = (f, t);
            rest = &rest[1..];
            if let Some(kind) = displaced {
                let Some(&(pf, pt)) = rest.first().filter(|(pf, _)| *pf == t) else {
                    return refuse(Refusal::MustPlace(square_of(t)));
                };
                if pos.occupied() & bit(pt) != 0 {
                    return refuse(Refusal::NotVacant(square_of(pt)));
                }
                pos.place(kind, pt);
                turn.place = pt;
                rest = &rest[1..];
                let _ = pf;
            }
        } else if self.has_pawn_move() {
            return refuse(Refusal::PawnCompulsory);
        }
        match rest {
            [] if turn.moves_pawn() => Ok(turn),
            [] => refuse(Refusal::SupporterMustMove),
            [(f, t)] => {
                let legal = if turn.moves_pawn() {
                    let mut moves = Vec::new();
                    pos.supporter_moves(&mut moves);
                    moves.contains(&(*f, *t))
                } else {
                    self.forced_supporter_moves().contains(&(*f, *t))
                };
                if !legal {
                    let what = match self.rules {
                        Rules::Gladiator => "a jump of an own supporter to a vacant border square",
                        Rules::Brawl => "a non-capturing move of an own supporter",
                    };
                    return refuse(Refusal::BadSupporter {
                        leg: Leg {
                            from: square_of(*f),
                            to: square_of(*t),
                        },
                        what,
                        must_free_pawn: !turn.moves_pawn(),
                    });
                }
                turn.support = (*f, *t);
                Ok(turn)
            }
            _ => refuse(Refusal::TooManyLegs(legs.len())),
        }
    }
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
