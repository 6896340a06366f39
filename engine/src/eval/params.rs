//! The numbers of the handcrafted evaluation as one struct, `HceParams`.
//!
//! The values the engine plays with are the constant `HCE_PARAMS` in `hce_values.rs`,
//! a file written by `HceParams::to_rust_source` (so `qili tune-hce --out` produces a
//! drop-in replacement). The evaluation reads the constant directly, so every number
//! is an immediate to the compiler; the tuner works on the flat vector (`to_flat`,
//! `from_flat`) whose order is the field order below and of the file.
//!
//! Piece-square tables are drawn as the board looks from Red's side: entry
//! `d = (9 - rank) * 9 + file` of the Red point; Black uses the point rotated by 180°.
//! Kinds are indexed King, Advisor, Elephant, Knight, Rook, Cannon, Pawn.

/// Every number of the handcrafted evaluation. Terms that come in middlegame and
/// endgame flavours are blended by game phase; the rest are fixed shapes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HceParams {
    /// Bonus for the side to move.
    pub tempo: i32,
    /// Material by kind.
    pub material_mg: [i32; 7],
    pub material_eg: [i32; 7],
    /// Placement bonus by kind and drawn point (see the module comment).
    pub pst_mg: [[i32; 90]; 7],
    pub pst_eg: [[i32; 90]; 7],
    /// Knight bonus by number of reachable points (8 or more share the last entry).
    pub knight_mob_mg: [i32; 9],
    pub knight_mob_eg: [i32; 9],
    /// Per reachable point (empty or enemy).
    pub rook_mob_mg: i32,
    pub rook_mob_eg: i32,
    /// Per empty point the cannon slides to.
    pub cannon_mob_mg: i32,
    pub cannon_mob_eg: i32,
    /// A cannon on the enemy king's file with nothing between (空头炮).
    pub hollow_cannon_mg: i32,
    pub hollow_cannon_eg: i32,
    /// A cannon on the enemy king's file with one screen.
    pub cannon_on_king_file_mg: i32,
    pub cannon_on_king_file_eg: i32,
    /// Per pair of side-by-side pawns across the river.
    pub linked_pawns_mg: i32,
    pub linked_pawns_eg: i32,
    /// Penalty per missing advisor, times the enemy's attack units.
    pub missing_advisor_mg: i32,
    pub missing_advisor_eg: i32,
    /// Penalty per missing elephant, times the enemy's attack units.
    pub missing_elephant_mg: i32,
    pub missing_elephant_eg: i32,
    /// Attack units per enemy rook, knight, cannon and pawn across the river
    /// (a multiplier of the palace terms: not tuned).
    pub attack_weight: [i32; 4],
    /// Game phase weight by kind; `phase_max` is the full board (not tuned).
    pub phase_weight: [i32; 7],
    pub phase_max: i32,
    /// The side ahead with nothing left to attack with has its score divided by this
    /// (not tuned).
    pub no_attacker_divisor: i32,
}

/// Offsets of the fields in the flat vector (`HceParams::to_flat`).
pub mod idx {
    pub const TEMPO: usize = 0;
    pub const MATERIAL_MG: usize = 1;
    pub const MATERIAL_EG: usize = MATERIAL_MG + 7;
    pub const PST_MG: usize = MATERIAL_EG + 7;
    pub const PST_EG: usize = PST_MG + 7 * 90;
    pub const KNIGHT_MOB_MG: usize = PST_EG + 7 * 90;
    pub const KNIGHT_MOB_EG: usize = KNIGHT_MOB_MG + 9;
    pub const ROOK_MOB_MG: usize = KNIGHT_MOB_EG + 9;
    pub const ROOK_MOB_EG: usize = ROOK_MOB_MG + 1;
    pub const CANNON_MOB_MG: usize = ROOK_MOB_EG + 1;
    pub const CANNON_MOB_EG: usize = CANNON_MOB_MG + 1;
    pub const HOLLOW_CANNON_MG: usize = CANNON_MOB_EG + 1;
    pub const HOLLOW_CANNON_EG: usize = HOLLOW_CANNON_MG + 1;
    pub const CANNON_ON_KING_FILE_MG: usize = HOLLOW_CANNON_EG + 1;
    pub const CANNON_ON_KING_FILE_EG: usize = CANNON_ON_KING_FILE_MG + 1;
    pub const LINKED_PAWNS_MG: usize = CANNON_ON_KING_FILE_EG + 1;
    pub const LINKED_PAWNS_EG: usize = LINKED_PAWNS_MG + 1;
    pub const MISSING_ADVISOR_MG: usize = LINKED_PAWNS_EG + 1;
    pub const MISSING_ADVISOR_EG: usize = MISSING_ADVISOR_MG + 1;
    pub const MISSING_ELEPHANT_MG: usize = MISSING_ADVISOR_EG + 1;
    pub const MISSING_ELEPHANT_EG: usize = MISSING_ELEPHANT_MG + 1;
    pub const ATTACK_WEIGHT: usize = MISSING_ELEPHANT_EG + 1;
    pub const PHASE_WEIGHT: usize = ATTACK_WEIGHT + 4;
    pub const PHASE_MAX: usize = PHASE_WEIGHT + 7;
    pub const NO_ATTACKER_DIVISOR: usize = PHASE_MAX + 1;
    /// Length of the flat vector.
    pub const LEN: usize = NO_ATTACKER_DIVISOR + 1;
}

/// Bound on every number, so that no evaluation sum can overflow.
pub const MAX_MAGNITUDE: i32 = 10_000;

/// Names of the kinds, for comments in the written file.
const KIND_NAMES: [&str; 7] = [
    "King", "Advisor", "Elephant", "Knight", "Rook", "Cannon", "Pawn",
];

/// Why a parameter file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamsError {
    /// No `HceParams {` body found.
    NoBody,
    /// A field name is missing (the file is not of the written form).
    MissingField(&'static str),
    /// A token that is not an integer, a field name or punctuation.
    BadToken(String),
    /// The body holds this many numbers instead of `idx::LEN`.
    Count(usize),
    /// The numbers are out of the range the evaluation can use.
    Invalid(&'static str),
}

impl std::fmt::Display for ParamsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParamsError::NoBody => write!(f, "no `HceParams {{ ... }}` body"),
            ParamsError::MissingField(n) => write!(f, "field `{n}` missing"),
            ParamsError::BadToken(t) => write!(f, "unexpected token `{t}`"),
            ParamsError::Count(n) => {
                write!(f, "{n} numbers where {} were expected", idx::LEN)
            }
            ParamsError::Invalid(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for ParamsError {}

/// Field names in flat order with their lengths (a table of tables counts 7 × 90).
const FIELDS: [(&str, usize); 25] = [
    ("tempo", 1),
    ("material_mg", 7),
    ("material_eg", 7),
    ("pst_mg", 630),
    ("pst_eg", 630),
    ("knight_mob_mg", 9),
    ("knight_mob_eg", 9),
    ("rook_mob_mg", 1),
    ("rook_mob_eg", 1),
    ("cannon_mob_mg", 1),
    ("cannon_mob_eg", 1),
    ("hollow_cannon_mg", 1),
    ("hollow_cannon_eg", 1),
    ("cannon_on_king_file_mg", 1),
    ("cannon_on_king_file_eg", 1),
    ("linked_pawns_mg", 1),
    ("linked_pawns_eg", 1),
    ("missing_advisor_mg", 1),
    ("missing_advisor_eg", 1),
    ("missing_elephant_mg", 1),
    ("missing_elephant_eg", 1),
    ("attack_weight", 4),
    ("phase_weight", 7),
    ("phase_max", 1),
    ("no_attacker_divisor", 1),
];

impl HceParams {
    /// All numbers in field order (`idx` gives the offsets).
    pub fn to_flat(&self) -> Vec<i32> {
        let mut v = Vec::with_capacity(idx::LEN);
        v.push(self.tempo);
        v.extend_from_slice(&self.material_mg);
        v.extend_from_slice(&self.material_eg);
        for t in &self.pst_mg {
            v.extend_from_slice(t);
        }
        for t in &self.pst_eg {
            v.extend_from_slice(t);
        }
        v.extend_from_slice(&self.knight_mob_mg);
        v.extend_from_slice(&self.knight_mob_eg);
        v.extend_from_slice(&[
            self.rook_mob_mg,
            self.rook_mob_eg,
            self.cannon_mob_mg,
            self.cannon_mob_eg,
            self.hollow_cannon_mg,
            self.hollow_cannon_eg,
            self.cannon_on_king_file_mg,
            self.cannon_on_king_file_eg,
            self.linked_pawns_mg,
            self.linked_pawns_eg,
            self.missing_advisor_mg,
            self.missing_advisor_eg,
            self.missing_elephant_mg,
            self.missing_elephant_eg,
        ]);
        v.extend_from_slice(&self.attack_weight);
        v.extend_from_slice(&self.phase_weight);
        v.push(self.phase_max);
        v.push(self.no_attacker_divisor);
        debug_assert_eq!(v.len(), idx::LEN);
        v
    }

    /// The inverse of `to_flat`; `None` unless `v` has exactly `idx::LEN` numbers.
    pub fn from_flat(v: &[i32]) -> Option<HceParams> {
        if v.len() != idx::LEN {
            return None;
        }
        let arr7 = |o: usize| -> [i32; 7] { std::array::from_fn(|i| v[o + i]) };
        let arr9 = |o: usize| -> [i32; 9] { std::array::from_fn(|i| v[o + i]) };
        let tables = |o: usize| -> [[i32; 90]; 7] {
            std::array::from_fn(|k| std::array::from_fn(|d| v[o + k * 90 + d]))
        };
        Some(HceParams {
            tempo: v[idx::TEMPO],
            material_mg: arr7(idx::MATERIAL_MG),
            material_eg: arr7(idx::MATERIAL_EG),
            pst_mg: tables(idx::PST_MG),
            pst_eg: tables(idx::PST_EG),
            knight_mob_mg: arr9(idx::KNIGHT_MOB_MG),
            knight_mob_eg: arr9(idx::KNIGHT_MOB_EG),
            rook_mob_mg: v[idx::ROOK_MOB_MG],
            rook_mob_eg: v[idx::ROOK_MOB_EG],
            cannon_mob_mg: v[idx::CANNON_MOB_MG],
            cannon_mob_eg: v[idx::CANNON_MOB_EG],
            hollow_cannon_mg: v[idx::HOLLOW_CANNON_MG],
            hollow_cannon_eg: v[idx::HOLLOW_CANNON_EG],
            cannon_on_king_file_mg: v[idx::CANNON_ON_KING_FILE_MG],
            cannon_on_king_file_eg: v[idx::CANNON_ON_KING_FILE_EG],
            linked_pawns_mg: v[idx::LINKED_PAWNS_MG],
            linked_pawns_eg: v[idx::LINKED_PAWNS_EG],
            missing_advisor_mg: v[idx::MISSING_ADVISOR_MG],
            missing_advisor_eg: v[idx::MISSING_ADVISOR_EG],
            missing_elephant_mg: v[idx::MISSING_ELEPHANT_MG],
            missing_elephant_eg: v[idx::MISSING_ELEPHANT_EG],
            attack_weight: std::array::from_fn(|i| v[idx::ATTACK_WEIGHT + i]),
            phase_weight: arr7(idx::PHASE_WEIGHT),
            phase_max: v[idx::PHASE_MAX],
            no_attacker_divisor: v[idx::NO_ATTACKER_DIVISOR],
        })
    }

    /// The Rust source of `hce_values.rs` holding these numbers; `note` becomes the
    /// first lines of its module comment (where the numbers came from).
    pub fn to_rust_source(&self, note: &str) -> String {
        use std::fmt::Write;
        let flat = self.to_flat();
        let mut s = String::new();
        for line in note.lines() {
            let _ = writeln!(s, "//! {line}");
        }
        s.push_str(
            "//!\n\
             //! Written by `HceParams::to_rust_source` (`qili tune-hce --out` writes a file of\n\
             //! this form); the evaluation reads `HCE_PARAMS` as a constant.\n\
             \n\
             use super::params::HceParams;\n\
             \n\
             #[rustfmt::skip]\n\
             pub const HCE_PARAMS: HceParams = HceParams {\n",
        );
        let mut o = 0;
        for &(name, len) in FIELDS.iter() {
            let vals = &flat[o..o + len];
            match len {
                1 => {
                    let _ = writeln!(s, "    {name}: {},", vals[0]);
                }
                630 => {
                    let _ = writeln!(s, "    {name}: [");
                    for (k, table) in vals.chunks(90).enumerate() {
                        let _ = writeln!(s, "        // {}", KIND_NAMES[k]);
                        s.push_str("        [\n");
                        for row in table.chunks(9) {
                            s.push_str("           ");
                            for v in row {
                                let _ = write!(s, " {v:>4},");
                            }
                            s.push('\n');
                        }
                        s.push_str("        ],\n");
                    }
                    s.push_str("    ],\n");
                }
                _ => {
                    let list: Vec<String> = vals.iter().map(|v| v.to_string()).collect();
                    let _ = writeln!(s, "    {name}: [{}],", list.join(", "));
                }
            }
            o += len;
        }
        s.push_str("};\n");
        s
    }

    /// Read a file written by `to_rust_source` (comments and layout are free; the
    /// numbers must come in field order).
    pub fn from_rust_source(text: &str) -> Result<HceParams, ParamsError> {
        let start = text.find("HceParams {").ok_or(ParamsError::NoBody)?;
        let body = &text[start + "HceParams {".len()..];
        let mut clean = String::with_capacity(body.len());
        for line in body.lines() {
            let code = line.split("//").next().unwrap_or("");
            clean.push_str(code);
            clean.push('\n');
        }
        for &(name, _) in FIELDS.iter() {
            if !clean.contains(&format!("{name}:")) {
                return Err(ParamsError::MissingField(name));
            }
        }
        let mut nums = Vec::with_capacity(idx::LEN);
        let separators = |c: char| c.is_whitespace() || ",:[]{};".contains(c);
        for tok in clean.split(separators).filter(|t| !t.is_empty()) {
            if let Ok(n) = tok.parse::<i32>() {
                nums.push(n);
            } else if !tok.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
                return Err(ParamsError::BadToken(tok.to_string()));
            }
        }
        let p = HceParams::from_flat(&nums).ok_or(ParamsError::Count(nums.len()))?;
        p.check().map_err(ParamsError::Invalid)?;
        Ok(p)
    }

    /// Numbers the evaluation can use without dividing by zero or overflowing.
    pub fn check(&self) -> Result<(), &'static str> {
        if !(1..=255).contains(&self.phase_max) {
            return Err("phase_max must be in 1..=255");
        }
        if self.no_attacker_divisor < 1 {
            return Err("no_attacker_divisor must be at least 1");
        }
        if self
            .phase_weight
            .iter()
            .chain(&self.attack_weight)
            .any(|&w| !(0..=16).contains(&w))
        {
            return Err("phase and attack weights must be in 0..=16");
        }
        if self.to_flat().iter().any(|v| v.abs() > MAX_MAGNITUDE) {
            return Err("a number beyond ±10000");
        }
        Ok(())
    }
}
