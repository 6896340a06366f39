//! The quantised network: the file image kept in 64-byte-aligned memory, its weight
//! sections viewed in place as `i16`/`i32` slices through bytemuck (no parsing).

use crate::buckets::{self, MAX_BUCKETS};
use crate::format::{self, NetError, FT_B_OFFSET, FT_WEIGHTS, FT_W_OFFSET, HEADER_LEN};
use crate::format::{out_b_offset, OUT_W_OFFSET};
use crate::{HIDDEN, OUT_WEIGHT_MAX};
use bytemuck::{Pod, Zeroable};
use rules::Position;
use std::fmt;
use std::path::Path;

#[derive(Clone, Copy, Pod, Zeroable)]
#[repr(C, align(64))]
struct Block([u8; 64]);

/// A loaded, validated net. Cheap to share behind an `Arc`.
#[derive(Clone)]
pub struct Network {
    blocks: Vec<Block>,
    /// Output heads (material buckets), 1..=MAX_BUCKETS.
    buckets: usize,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Network {{ hidden: {HIDDEN}, buckets: {}, checksum: {:016x} }}",
            self.buckets,
            self.checksum()
        )
    }
}

impl Network {
    /// Read and validate a net file.
    pub fn load(path: impl AsRef<Path>) -> Result<Network, NetError> {
        Network::from_bytes(&format::read_file(path.as_ref())?)
    }

    /// Validate a file image (e.g. from `include_bytes!`) and copy it into aligned memory.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let buckets = format::validate(bytes)?;
        let mut blocks = vec![Block([0; 64]); format::file_len(buckets) / 64];
        bytemuck::cast_slice_mut::<Block, u8>(&mut blocks).copy_from_slice(bytes);
        let net = Network { blocks, buckets };
        if let Some((index, &value)) = net
            .out_weights()
            .iter()
            .enumerate()
            .find(|(_, w)| (**w as i32).abs() > OUT_WEIGHT_MAX)
        {
            return Err(NetError::OutputWeightOutOfRange { index, value });
        }
        Ok(net)
    }

    /// Build a one-head net from quantised parts (the trainer's export).
    pub fn from_parts(
        ft_weights: &[i16],
        ft_biases: &[i16],
        out_weights: &[i16],
        out_bias: i32,
    ) -> Result<Network, NetError> {
        Network::from_parts_bucketed(ft_weights, ft_biases, out_weights, &[out_bias])
    }

    /// Build a net with `out_biases.len()` output heads from quantised parts:
    /// `out_weights` holds `2 × HIDDEN` weights per head, head after head.
    pub fn from_parts_bucketed(
        ft_weights: &[i16],
        ft_biases: &[i16],
        out_weights: &[i16],
        out_biases: &[i32],
    ) -> Result<Network, NetError> {
        let buckets = out_biases.len();
        if !(1..=MAX_BUCKETS).contains(&buckets) {
            return Err(NetError::BadBucketCount {
                found: buckets as u32,
                max: MAX_BUCKETS as u32,
            });
        }
        let check = |part, len, expected| {
            if len == expected {
                Ok(())
            } else {
                Err(NetError::WrongPartLength {
                    part,
                    len,
                    expected,
                })
            }
        };
        check("ft_weights", ft_weights.len(), FT_WEIGHTS)?;
        check("ft_biases", ft_biases.len(), HIDDEN)?;
        check("out_weights", out_weights.len(), buckets * 2 * HIDDEN)?;
        let out_b = out_b_offset(buckets);
        let mut bytes = vec![0u8; format::file_len(buckets)];
        bytes[FT_W_OFFSET..FT_B_OFFSET].copy_from_slice(bytemuck::cast_slice(ft_weights));
        bytes[FT_B_OFFSET..OUT_W_OFFSET].copy_from_slice(bytemuck::cast_slice(ft_biases));
        bytes[OUT_W_OFFSET..out_b].copy_from_slice(bytemuck::cast_slice(out_weights));
        for (i, b) in out_biases.iter().enumerate() {
            bytes[out_b + 4 * i..out_b + 4 * i + 4].copy_from_slice(&b.to_le_bytes());
        }
        let sum = format::checksum(&bytes[HEADER_LEN..]);
        bytes[..HEADER_LEN].copy_from_slice(&format::header(sum, buckets));
        Network::from_bytes(&bytes)
    }

    /// The file image.
    pub fn as_bytes(&self) -> &[u8] {
        bytemuck::cast_slice(&self.blocks)
    }

    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), NetError> {
        let path = path.as_ref();
        std::fs::write(path, self.as_bytes()).map_err(|e| NetError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })
    }

    pub fn checksum(&self) -> u64 {
        format::checksum(&self.as_bytes()[HEADER_LEN..])
    }

    /// First-layer weights, feature-major: `[f * HIDDEN .. (f + 1) * HIDDEN]` is feature f's column.
    #[inline(always)]
    pub fn ft_weights(&self) -> &[i16] {
        bytemuck::cast_slice(&self.as_bytes()[FT_W_OFFSET..FT_B_OFFSET])
    }

    #[inline(always)]
    pub fn ft_column(&self, feature: usize) -> &[i16; HIDDEN] {
        let w = &self.ft_weights()[feature * HIDDEN..(feature + 1) * HIDDEN];
        // The slice has exactly HIDDEN elements by construction.
        w.try_into().unwrap_or_else(|_| unreachable!())
    }

    #[inline(always)]
    pub fn ft_biases(&self) -> &[i16; HIDDEN] {
        let b: &[i16] = bytemuck::cast_slice(&self.as_bytes()[FT_B_OFFSET..OUT_W_OFFSET]);
        b.try_into().unwrap_or_else(|_| unreachable!())
    }

    /// Number of output heads (material buckets); 1 for architecture 1.
    #[inline(always)]
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// The output head for a position with `pieces` pieces on the board.
    #[inline(always)]
    pub fn bucket(&self, pieces: u32) -> usize {
        buckets::bucket(pieces, self.buckets)
    }

    /// The output head that scores `pos` (no piece count needed with one head).
    #[inline(always)]
    pub fn bucket_of(&self, pos: &Position) -> usize {
        if self.buckets == 1 {
            0
        } else {
            self.bucket(pos.occupied().count())
        }
    }

    /// Output weights of every head, head after head; in each, the side to move's
    /// `HIDDEN` first, then the opponent's.
    #[inline(always)]
    pub fn out_weights(&self) -> &[i16] {
        bytemuck::cast_slice(&self.as_bytes()[OUT_W_OFFSET..out_b_offset(self.buckets)])
    }

    /// Head `bucket`'s output weights of the side to move's and the opponent's hidden
    /// layer (a `bucket` beyond the last head reads the last head).
    #[inline(always)]
    pub fn out_halves(&self, bucket: usize) -> (&[i16; HIDDEN], &[i16; HIDDEN]) {
        let at = OUT_W_OFFSET + bucket.min(self.buckets - 1) * 2 * 2 * HIDDEN;
        let head: &[i16] = bytemuck::cast_slice(&self.as_bytes()[at..at + 2 * 2 * HIDDEN]);
        let (a, b) = head.split_at(HIDDEN);
        (
            a.try_into().unwrap_or_else(|_| unreachable!()),
            b.try_into().unwrap_or_else(|_| unreachable!()),
        )
    }

    /// Head `bucket`'s output bias (a `bucket` beyond the last head reads the last head).
    #[inline(always)]
    pub fn out_bias(&self, bucket: usize) -> i32 {
        let at = out_b_offset(self.buckets) + 4 * bucket.min(self.buckets - 1);
        let mut b = [0u8; 4];
        b.copy_from_slice(&self.as_bytes()[at..at + 4]);
        i32::from_le_bytes(b)
    }
}
