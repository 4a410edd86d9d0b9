//! The weights of the Pagan evaluation (which `quill tune` fits), and the terms they weigh.

/// How many weights [`Weights::to_array`] lists.
pub const TERMS: usize = 28;

/// The evaluation's weights, in centipawns (a live pawn is 100, the unit, and fixed; so is the
/// tempo). Each weighs one term of `Position::eval_terms`; the evaluation is a fixed part plus
/// the terms times these weights, for the side to move, divided by a fixed factor where the
/// side ahead cannot win (`pagan_play::DRAWISH`) or has no unit to spare (`pagan_play::THIN`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// A live Wazir, Alchemist and Pagan (a dead Pagan too: it walks back).
    pub(crate) wazir: i32,
    pub(crate) alchemist: i32,
    pub(crate) pagan: i32,
    /// A dead Wazir, Alchemist and pawn: they play on the dead board only.
    pub(crate) dead_wazir: i32,
    pub(crate) dead_alchemist: i32,
    pub(crate) dead_pawn: i32,
    /// A dead Pagan, beyond a live one's worth, while the enemy king lives (once it is dead,
    /// the mate is on the dead board, and a Pagan there is worth as much as here).
    pub(crate) dead_pagan: i32,
    /// A live pawn on file e, d, c, b and a (White's; Black's on c, d, e, f and g): how far it
    /// has stepped toward promotion.
    pub(crate) advance: [i32; 5],
    /// Each square a piece can move to, while the enemy king lives and once it is dead.
    pub(crate) mobility: i32,
    pub(crate) mobility_hunting: i32,
    /// Around a live enemy king: each Pagan step (bridge of zero width) nearer than 5, and
    /// each step of another live piece nearer than 4.
    pub(crate) pressure_pagan: i32,
    pub(crate) pressure: i32,
    /// Each square of room taken from a live enemy king, when its capture could lead to a mate.
    pub(crate) net: i32,
    /// The enemy king dead: the hunt's base.
    pub(crate) hunt: i32,
    /// Each ply nearer a mate by two Pagans (`pagan::hunt`), below 24.
    pub(crate) mate_path: i32,
    /// Each Pagan step nearer the dead enemy king than 9, of each Pagan.
    pub(crate) hunt_pagan: i32,
    /// Each step nearer the dead enemy king than 5, of each other dead piece.
    pub(crate) hunt_dead: i32,
    /// Each frame rank of the dead enemy king nearer the bridge (up to rank 4).
    pub(crate) bridge_rank: i32,
    /// Each file of the dead enemy king nearer the dead board's side files (b and f).
    pub(crate) side_file: i32,
    /// Each square of room (of 8) taken from the dead enemy king.
    pub(crate) hunt_room: i32,
    /// The dead enemy king in check.
    pub(crate) hunt_check: i32,
    /// Each enemy dead piece within 2 of where one's live king would reincarnate.
    pub(crate) exposure: i32,
    /// One's live king attacked with one to move, and each such enemy dead piece then.
    pub(crate) attacked: i32,
    pub(crate) attacked_exposure: i32,
    /// The side to move's bonus (fixed: self-play results cannot separate it from the first
    /// move's advantage).
    pub tempo: i32,
}

/// The evaluation's weights.
pub const WEIGHTS: Weights = Weights {
    wazir: 300,
    alchemist: 300,
    pagan: 550,
    dead_wazir: 120,
    dead_alchemist: 120,
    dead_pawn: 40,
    dead_pagan: -50,
    advance: [8, 18, 32, 55, 55],
    mobility: 4,
    mobility_hunting: 1,
    pressure_pagan: 8,
    pressure: 6,
    net: 10,
    hunt: 250,
    mate_path: 20,
    hunt_pagan: 24,
    hunt_dead: 12,
    bridge_rank: 30,
    side_file: 15,
    hunt_room: 30,
    hunt_check: 40,
    exposure: -8,
    attacked: -40,
    attacked_exposure: -20,
    tempo: 10,
};

/// What one weight weighs, in the order of [`Weights::to_array`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Term {
    Wazir,
    Alchemist,
    Pagan,
    DeadWazir,
    DeadAlchemist,
    DeadPawn,
    DeadPagan,
    /// A live pawn `2 + i` files from its start file.
    Advance(u8),
    Mobility,
    MobilityHunting,
    PressurePagan,
    Pressure,
    Net,
    Hunt,
    MatePath,
    HuntPagan,
    HuntDead,
    BridgeRank,
    SideFile,
    HuntRoom,
    HuntCheck,
    Exposure,
    Attacked,
    AttackedExposure,
}

impl Term {
    /// The term's index in [`Weights::to_array`].
    #[inline(always)]
    pub(crate) const fn index(self) -> usize {
        match self {
            Term::Wazir => 0,
            Term::Alchemist => 1,
            Term::Pagan => 2,
            Term::DeadWazir => 3,
            Term::DeadAlchemist => 4,
            Term::DeadPawn => 5,
            Term::DeadPagan => 6,
            Term::Advance(i) => 7 + i as usize,
            Term::Mobility => 12,
            Term::MobilityHunting => 13,
            Term::PressurePagan => 14,
            Term::Pressure => 15,
            Term::Net => 16,
            Term::Hunt => 17,
            Term::MatePath => 18,
            Term::HuntPagan => 19,
            Term::HuntDead => 20,
            Term::BridgeRank => 21,
            Term::SideFile => 22,
            Term::HuntRoom => 23,
            Term::HuntCheck => 24,
            Term::Exposure => 25,
            Term::Attacked => 26,
            Term::AttackedExposure => 27,
        }
    }
}

impl Weights {
    /// The names of the weights, in the order of [`Weights::to_array`].
    pub const NAMES: [&'static str; TERMS] = [
        "wazir",
        "alchemist",
        "pagan",
        "dead_wazir",
        "dead_alchemist",
        "dead_pawn",
        "dead_pagan",
        "advance.2",
        "advance.3",
        "advance.4",
        "advance.5",
        "advance.6",
        "mobility",
        "mobility_hunting",
        "pressure_pagan",
        "pressure",
        "net",
        "hunt",
        "mate_path",
        "hunt_pagan",
        "hunt_dead",
        "bridge_rank",
        "side_file",
        "hunt_room",
        "hunt_check",
        "exposure",
        "attacked",
        "attacked_exposure",
    ];

    /// The weights as a list (the tempo aside).
    pub const fn to_array(&self) -> [i32; TERMS] {
        let a = self.advance;
        [
            self.wazir,
            self.alchemist,
            self.pagan,
            self.dead_wazir,
            self.dead_alchemist,
            self.dead_pawn,
            self.dead_pagan,
            a[0],
            a[1],
            a[2],
            a[3],
            a[4],
            self.mobility,
            self.mobility_hunting,
            self.pressure_pagan,
            self.pressure,
            self.net,
            self.hunt,
            self.mate_path,
            self.hunt_pagan,
            self.hunt_dead,
            self.bridge_rank,
            self.side_file,
            self.hunt_room,
            self.hunt_check,
            self.exposure,
            self.attacked,
            self.attacked_exposure,
        ]
    }

    /// The weights from a list in the order of [`Weights::to_array`], with this tempo.
    pub const fn from_array(w: [i32; TERMS], tempo: i32) -> Weights {
        Weights {
            wazir: w[0],
            alchemist: w[1],
            pagan: w[2],
            dead_wazir: w[3],
            dead_alchemist: w[4],
            dead_pawn: w[5],
            dead_pagan: w[6],
            advance: [w[7], w[8], w[9], w[10], w[11]],
            mobility: w[12],
            mobility_hunting: w[13],
            pressure_pagan: w[14],
            pressure: w[15],
            net: w[16],
            hunt: w[17],
            mate_path: w[18],
            hunt_pagan: w[19],
            hunt_dead: w[20],
            bridge_rank: w[21],
            side_file: w[22],
            hunt_room: w[23],
            hunt_check: w[24],
            exposure: w[25],
            attacked: w[26],
            attacked_exposure: w[27],
            tempo,
        }
    }
}
