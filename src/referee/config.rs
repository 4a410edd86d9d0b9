//! A match's configuration ([`MatchConfig`]) and its errors ([`MatchError`]): checking it
//! against the limits, checking a results file's records against it, the shard's schedule, the
//! seeded opening of each pair and the setup of each game.

use super::*;

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The variant.
    pub variant: Variant,
    /// The two seats, A first; A plays White in even games.
    pub seats: [Seat; 2],
    /// Games in the whole match (over every shard).
    pub games: u32,
    /// Games played at once.
    pub concurrency: usize,
    /// The seed of the random openings.
    pub seed: u64,
    /// Random turns played from the start position to make each pair's opening.
    pub opening_turns: u32,
    /// Opening FENs (one per pair, in turn) instead of random openings.
    pub openings: Option<Vec<String>>,
    /// Adjudication.
    pub adjudication: Adjudication,
    /// How far past its clock an engine may answer.
    pub margin: Duration,
    /// How long an engine with only a depth or node limit may think.
    pub move_timeout: Duration,
    /// The results file.
    pub results: PathBuf,
    /// The PGN file, if any.
    pub pgn: Option<PathBuf>,
    /// Continue the match recorded in `results`.
    pub resume: bool,
    /// Stop early when this test decides.
    pub sprt: Option<Sprt>,
    /// A directory for one dialogue log per game.
    pub log_dir: Option<PathBuf>,
    /// `(i, n)`: play only the pairs `p` with `p % n == i`.
    pub shard: (u32, u32),
}

/// What is inconsistent in a [`MatchConfig`] (checked before a match starts).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfigError {
    /// Both seats carry this name.
    SameNames(String),
    /// Both seats are people.
    TwoHumans,
    /// A CECP seat (named) with a node limit.
    CecpNodes(String),
    /// A shard `I/N` without `I < N`.
    Shard(u32, u32),
    /// A match of no games.
    NoGames,
    /// A count beyond its maximum.
    OverMaximum {
        /// The command-line option that sets it, without `--`.
        option: &'static str,
        /// The value given.
        value: u64,
        /// Its maximum.
        max: u64,
    },
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConfigError::SameNames(name) => {
                write!(f, "both seats are named '{name}'; give one a name=")
            }
            ConfigError::TwoHumans => f.write_str("two human seats: the referee needs an engine"),
            ConfigError::CecpNodes(name) => write!(
                f,
                "seat {name}: CECP has no node limit (nodes= is for UCI engines)"
            ),
            ConfigError::Shard(i, n) => write!(f, "shard {i}/{n}: want I/N with I < N"),
            ConfigError::NoGames => f.write_str("a match of 0 games"),
            ConfigError::OverMaximum { option, value, max } => {
                write!(f, "--{option} {value} is more than the maximum, {max}")
            }
        }
    }
}

impl std::error::Error for ConfigError {}

/// Why a match could not run.
#[derive(Debug)]
pub enum MatchError {
    /// The configuration is inconsistent in itself.
    Invalid(ConfigError),
    /// The configuration is inconsistent (with a file, or with what the seats can do).
    Config(String),
    /// A seat cannot play (it does not start, or refuses an option).
    Seat {
        /// The seat's name.
        name: String,
        /// Why.
        why: crate::referee::game::ProbeError,
    },
    /// The results file.
    Results(results::Error),
    /// Another file.
    Io(PathBuf, std::io::Error),
}

impl std::fmt::Display for MatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MatchError::Invalid(e) => write!(f, "{e}"),
            MatchError::Config(m) => f.write_str(m),
            MatchError::Seat { name, why } => write!(
                f,
                "seat {name} is not fit to play, so no game was started: {why}"
            ),
            MatchError::Results(e) => write!(f, "{e}"),
            MatchError::Io(p, e) => write!(f, "{}: {e}", p.display()),
        }
    }
}

impl std::error::Error for MatchError {}

impl From<ConfigError> for MatchError {
    fn from(e: ConfigError) -> MatchError {
        MatchError::Invalid(e)
    }
}

impl From<results::Error> for MatchError {
    fn from(e: results::Error) -> MatchError {
        MatchError::Results(e)
    }
}

/// Draws of one pair's random opening, at most, before the variant's openings of that many
/// turns are taken as used up ([`MatchConfig::openings`]).
const DRAWS: usize = 256;

impl MatchConfig {
    /// What identifies the match in the results file's header: a resumed file must match.
    pub(super) fn signature(&self) -> String {
        format!(
            "variant={} a={} b={} games={} seed={} opening-turns={} openings={} shard={}/{}",
            self.variant,
            self.seats[0].name(),
            self.seats[1].name(),
            self.games,
            self.seed,
            self.opening_turns,
            self.openings.as_ref().map_or(0, Vec::len),
            self.shard.0,
            self.shard.1
        )
    }

    /// Checks the configuration: the seats, the shard and every count against its maximum.
    pub(super) fn check(&self) -> Result<(), MatchError> {
        self.check_seats()?;
        self.check_counts()?;
        Ok(())
    }

    /// Two seats with distinct names, at most one of them a person, and no node limit for a
    /// CECP engine.
    fn check_seats(&self) -> Result<(), ConfigError> {
        let [a, b] = &self.seats;
        if a.name() == b.name() {
            return Err(ConfigError::SameNames(a.name().to_owned()));
        }
        if self.seats.iter().all(|s| matches!(s, Seat::Human { .. })) {
            return Err(ConfigError::TwoHumans);
        }
        for s in &self.seats {
            if let Seat::Engine(e) = s
                && e.dialect == seat::Dialect::Cecp
                && e.limits.nodes.is_some()
            {
                return Err(ConfigError::CecpNodes(e.name.clone()));
            }
        }
        Ok(())
    }

    /// A shard `I/N` with `I < N`, at least one game, and every count within its maximum.
    fn check_counts(&self) -> Result<(), ConfigError> {
        let (shard, shards) = self.shard;
        if shards == 0 || shard >= shards {
            return Err(ConfigError::Shard(shard, shards));
        }
        if self.games == 0 {
            return Err(ConfigError::NoGames);
        }
        let caps = [
            ("games", u64::from(self.games), u64::from(MAX_GAMES)),
            (
                "concurrency",
                self.concurrency as u64,
                MAX_CONCURRENCY as u64,
            ),
            (
                "opening-turns",
                u64::from(self.opening_turns),
                u64::from(MAX_OPENING_TURNS),
            ),
            (
                "max-turns",
                u64::from(self.adjudication.max_turns),
                u64::from(MAX_TURNS),
            ),
            (
                "margin-ms",
                u64::try_from(self.margin.as_millis()).unwrap_or(u64::MAX),
                MAX_MARGIN_MS,
            ),
            (
                "move-timeout",
                self.move_timeout.as_secs(),
                MAX_MOVE_TIMEOUT,
            ),
        ];
        match caps.into_iter().find(|&(_, value, max)| value > max) {
            Some((option, value, max)) => Err(ConfigError::OverMaximum { option, value, max }),
            None => Ok(()),
        }
    }

    /// Refuses a resumed file holding a record that is not of this match: a game number
    /// outside the match or this shard, a pair that is not the game's, seats that are not this
    /// match's in this game's colours.
    pub(super) fn check_records(
        &self,
        file: &ResultsFile,
        records: &[GameRecord],
    ) -> Result<(), MatchError> {
        for r in records {
            let (white, black) = if r.game % 2 == 0 { (0, 1) } else { (1, 0) };
            let why = if r.game >= self.games {
                Some(format!(
                    "game {} is not among the {} games of this match",
                    r.game, self.games
                ))
            } else if (r.game / 2) % self.shard.1 != self.shard.0 {
                Some(format!(
                    "game {} is not of shard {}/{}",
                    r.game, self.shard.0, self.shard.1
                ))
            } else if r.pair != r.game / 2 {
                Some(format!(
                    "game {} is of pair {}, not {}",
                    r.game,
                    r.game / 2,
                    r.pair
                ))
            } else if r.white != self.seats[white].name() || r.black != self.seats[black].name() {
                Some(format!(
                    "game {} is between {} and {}, not {} (White) and {} (Black)",
                    r.game,
                    r.white,
                    r.black,
                    self.seats[white].name(),
                    self.seats[black].name()
                ))
            } else {
                None
            };
            if let Some(why) = why {
                return Err(MatchError::Config(format!(
                    "{}:{}: refused: {why}; remove the line to resume",
                    file.path().display(),
                    file.line_of(r.game).unwrap_or(0)
                )));
            }
        }
        Ok(())
    }

    /// The game indices of this shard, in order.
    pub(super) fn schedule(&self) -> Vec<u32> {
        (0..self.games)
            .filter(|g| (g / 2) % self.shard.1 == self.shard.0)
            .collect()
    }

    /// The openings of this shard's pairs, by pair: a FEN from the list (one per pair, in
    /// turn), the start position, or random turns from it drawn with the match seed and the
    /// pair's index. Random openings are drawn distinct: a draw that lands on a position an
    /// earlier pair already has is drawn again from the pair's own generator, up to [`DRAWS`]
    /// draws; when none of them is new the variant's openings of that length are taken as used
    /// up, and a new round begins in which positions may come again. Every shard draws every
    /// pair (the earlier pairs decide what is new), so the shards agree.
    pub(crate) fn openings(&self) -> HashMap<u32, Opening> {
        let pairs = self.games.div_ceil(2);
        let mine = |pair: u32| pair % self.shard.1 == self.shard.0;
        let mut out = HashMap::new();
        if let Some(list) = self.openings.as_ref().filter(|l| !l.is_empty()) {
            for pair in (0..pairs).filter(|&p| mine(p)) {
                let k = pair as usize % list.len();
                let opening = Opening {
                    id: format!("file:{}", k + 1),
                    fen: Some(list[k].clone()),
                };
                out.insert(pair, opening);
            }
            return out;
        }
        if self.opening_turns == 0 {
            return (0..pairs)
                .filter(|&p| mine(p))
                .map(|p| (p, Opening::start()))
                .collect();
        }
        let mut seen: HashSet<String> = HashSet::new();
        for pair in 0..pairs {
            let mut rng =
                Rng::new(self.seed ^ (u64::from(pair) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let mut first = None;
            let mut new = None;
            for k in 0..DRAWS {
                let Some(fen) = self.draw(&mut rng) else {
                    break;
                };
                if !seen.contains(&fen) {
                    new = Some((k, fen));
                    break;
                }
                first.get_or_insert((k, fen));
            }
            let Some((k, fen)) = new.or_else(|| {
                seen.clear();
                first
            }) else {
                if mine(pair) {
                    out.insert(pair, Opening::start());
                }
                continue;
            };
            if mine(pair) {
                let id = match k {
                    0 => format!("seed:{}:{pair}", self.seed),
                    k => format!("seed:{}:{pair}:{k}", self.seed),
                };
                out.insert(
                    pair,
                    Opening {
                        id,
                        fen: Some(fen.clone()),
                    },
                );
            }
            seen.insert(fen);
        }
        out
    }

    /// One random opening: [`Self::opening_turns`] uniformly drawn legal turns from the start
    /// position that leave the game unfinished (up to 100 tries), as a FEN; `None` when no try
    /// succeeded (the start position is played).
    fn draw(&self, rng: &mut Rng) -> Option<String> {
        for _attempt in 0..100 {
            let mut game = Game::start(self.variant);
            let mut alive = true;
            for _ in 0..self.opening_turns {
                let turns = game.legal_turns();
                if turns.is_empty() || game.outcome().is_some() {
                    alive = false;
                    break;
                }
                let pick = rng.below(turns.len() as u64) as usize;
                if game.play(&turns[pick]).is_err() {
                    alive = false;
                    break;
                }
            }
            if alive && game.outcome().is_none() {
                return Some(game.fen());
            }
        }
        None
    }

    /// Game `index`'s setup, starting from `opening`.
    pub(super) fn setup(&self, index: u32, opening: Opening) -> GameSetup {
        GameSetup {
            variant: self.variant,
            index,
            pair: index / 2,
            opening,
            adjudication: self.adjudication,
            margin: self.margin,
            move_timeout: self.move_timeout,
            log: self
                .log_dir
                .as_ref()
                .map(|d| d.join(format!("game-{index}.log"))),
            event: format!("quill match {}", self.variant),
        }
    }
}
