//! Training data: 32 bytes per position, no file header, so that shards made with
//! different seeds can simply be concatenated (`cat a.bin b.bin > all.bin`).
//!
//! ```text
//! bytes  0..12  occupancy: bit s (s = rank*9 + file, 0..90) set when point s holds a piece
//! bytes 12..28  the pieces in increasing point order, one nibble each (low nibble first),
//!               nibble = colour*7 + kind (Red 0..7, Black 7..14); unused nibbles 0
//! bytes 28..30  search score, i16 little-endian, centipawns from the SIDE TO MOVE's view
//! byte  30      game result from the side to move's view: 0 loss, 1 draw, 2 win
//! byte  31      side to move: 0 Red, 1 Black
//! ```

use crate::features;
use bytemuck::{Pod, Zeroable};
use rules::{Color, FenError, Piece, Position, Setup, Square};
use std::fmt;
use std::io::{Read, Write};
use std::path::Path;

pub const RECORD_LEN: usize = 32;

/// Game result from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Loss = 0,
    Draw = 1,
    Win = 2,
}

impl Outcome {
    /// 0, 0.5 or 1.
    pub fn value(self) -> f32 {
        self as u8 as f32 * 0.5
    }
    pub fn flip(self) -> Outcome {
        match self {
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
            Outcome::Win => Outcome::Loss,
        }
    }
}

/// One packed, labelled position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Pod, Zeroable)]
#[repr(C)]
pub struct PackedPosition {
    pub bytes: [u8; RECORD_LEN],
}

#[derive(Debug)]
pub enum DataError {
    Io {
        path: String,
        message: String,
    },
    /// The file length is not a whole number of records.
    Length {
        path: String,
        len: u64,
    },
    BadRecord {
        index: usize,
        reason: &'static str,
    },
    /// The record decodes to an impossible position.
    BadPosition {
        index: usize,
        error: FenError,
    },
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::Io { path, message } => write!(f, "{path}: {message}"),
            DataError::Length { path, len } => write!(
                f,
                "{path}: {len} bytes is not a multiple of the {RECORD_LEN}-byte record"
            ),
            DataError::BadRecord { index, reason } => write!(f, "record {index}: {reason}"),
            DataError::BadPosition { index, error } => write!(f, "record {index}: {error}"),
        }
    }
}

impl std::error::Error for DataError {}

impl PackedPosition {
    pub fn pack(pos: &Position, score_stm: i16, outcome_stm: Outcome) -> PackedPosition {
        let mut b = [0u8; RECORD_LEN];
        let occ = pos.occupied().0;
        b[0..12].copy_from_slice(&occ.to_le_bytes()[0..12]);
        for (n, s) in pos.occupied().enumerate().take(32) {
            let p = pos.piece_at(s).map_or(0, |p| p.index() as u8);
            b[12 + n / 2] |= p << (4 * (n % 2));
        }
        b[28..30].copy_from_slice(&score_stm.to_le_bytes());
        b[30] = outcome_stm as u8;
        b[31] = pos.side_to_move() as u8;
        PackedPosition { bytes: b }
    }

    fn occupancy(&self) -> u128 {
        let mut x = [0u8; 16];
        x[0..12].copy_from_slice(&self.bytes[0..12]);
        u128::from_le_bytes(x)
    }

    pub fn score(&self) -> i16 {
        i16::from_le_bytes([self.bytes[28], self.bytes[29]])
    }

    pub fn outcome(&self) -> Outcome {
        match self.bytes[30] {
            0 => Outcome::Loss,
            1 => Outcome::Draw,
            _ => Outcome::Win,
        }
    }

    /// Pieces on the board (kings included), which picks the output head.
    pub fn piece_count(&self) -> u32 {
        self.occupancy().count_ones()
    }

    pub fn side_to_move(&self) -> Color {
        if self.bytes[31] == 0 {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// The pieces and their points (valid only for records that passed `check`).
    pub fn pieces(&self) -> impl Iterator<Item = (Piece, Square)> + '_ {
        let mut occ = self.occupancy();
        let mut n = 0usize;
        std::iter::from_fn(move || {
            if occ == 0 || n >= 32 {
                return None;
            }
            let s = occ.trailing_zeros() as u8;
            occ &= occ - 1;
            let nib = (self.bytes[12 + n / 2] >> (4 * (n % 2))) & 15;
            n += 1;
            Some((Piece::from_index((nib as usize).min(13)), Square(s)))
        })
    }

    /// The same position reflected left to right (file a ↔ file i), labels kept.
    /// Xiangqi's rules are symmetric under this reflection, so the mirrored record is
    /// an equally true training example (`TrainConfig::mirror`).
    pub fn mirrored(&self) -> PackedPosition {
        let mut pieces: Vec<(u8, u8)> = self
            .pieces()
            .map(|(p, s)| {
                let (rank, file) = (s.0 / 9, s.0 % 9);
                (rank * 9 + (8 - file), p.index() as u8)
            })
            .collect();
        pieces.sort_unstable_by_key(|&(s, _)| s);
        let mut b = [0u8; RECORD_LEN];
        let occ = pieces.iter().fold(0u128, |o, &(s, _)| o | 1u128 << s);
        b[0..12].copy_from_slice(&occ.to_le_bytes()[0..12]);
        for (n, &(_, p)) in pieces.iter().enumerate() {
            b[12 + n / 2] |= p << (4 * (n % 2));
        }
        b[28..32].copy_from_slice(&self.bytes[28..32]);
        PackedPosition { bytes: b }
    }

    /// Active feature indices of the side to move's and the opponent's perspective.
    pub fn features(&self, us: &mut Vec<usize>, them: &mut Vec<usize>) {
        us.clear();
        them.clear();
        let stm = self.side_to_move();
        for (p, s) in self.pieces() {
            us.push(features::index(stm, p, s));
            them.push(features::index(stm.flip(), p, s));
        }
    }

    /// Structural checks (cheap; no legality).
    pub fn check(&self) -> Result<(), &'static str> {
        let occ = self.occupancy();
        if occ >> 90 != 0 {
            return Err("occupancy bits beyond point 89");
        }
        let n = occ.count_ones() as usize;
        if n > 32 {
            return Err("more than 32 pieces");
        }
        for k in 0..32 {
            let nib = (self.bytes[12 + k / 2] >> (4 * (k % 2))) & 15;
            if k < n && nib >= 14 {
                return Err("piece nibble above 13");
            }
            if k >= n && nib != 0 {
                return Err("unused piece nibble is not zero");
            }
        }
        if self.bytes[30] > 2 {
            return Err("result byte above 2");
        }
        if self.bytes[31] > 1 {
            return Err("side-to-move byte above 1");
        }
        Ok(())
    }

    /// The position (validated by the rules crate).
    pub fn to_position(&self) -> Result<Position, FenError> {
        let mut board = [None; 90];
        for (p, s) in self.pieces() {
            board[s.index()] = Some(p);
        }
        Position::from_setup(&Setup {
            board,
            side: self.side_to_move(),
            plies_since_capture: 0,
            fullmove: 1,
        })
    }
}

/// Append records to a writer.
pub fn write_records(w: &mut impl Write, recs: &[PackedPosition]) -> std::io::Result<()> {
    w.write_all(bytemuck::cast_slice(recs))
}

/// Read and check every record of a file.
pub fn read_file(path: impl AsRef<Path>) -> Result<Vec<PackedPosition>, DataError> {
    let path = path.as_ref();
    let io = |e: std::io::Error| DataError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    };
    let mut f = std::fs::File::open(path).map_err(io)?;
    let len = f.metadata().map_err(io)?.len();
    if len % RECORD_LEN as u64 != 0 {
        return Err(DataError::Length {
            path: path.display().to_string(),
            len,
        });
    }
    let mut recs = vec![PackedPosition::zeroed(); (len / RECORD_LEN as u64) as usize];
    f.read_exact(bytemuck::cast_slice_mut(&mut recs))
        .map_err(io)?;
    for (index, r) in recs.iter().enumerate() {
        r.check()
            .map_err(|reason| DataError::BadRecord { index, reason })?;
    }
    Ok(recs)
}

/// Read records and also rebuild every position (slow; for tests and inspection).
pub fn decode_positions(recs: &[PackedPosition]) -> Result<Vec<Position>, DataError> {
    recs.iter()
        .enumerate()
        .map(|(index, r)| {
            r.check()
                .map_err(|reason| DataError::BadRecord { index, reason })?;
            r.to_position()
                .map_err(|error| DataError::BadPosition { index, error })
        })
        .collect()
}
