//! The quantised network: the file image kept in 64-byte-aligned memory, its weight
//! sections viewed in place as `i16`/`i32` slices through bytemuck (no parsing).

use crate::format::{self, NetError, FILE_LEN, FT_B_OFFSET, FT_WEIGHTS, FT_W_OFFSET, HEADER_LEN};
use crate::format::{OUT_B_OFFSET, OUT_W_OFFSET};
use crate::{HIDDEN, OUT_WEIGHT_MAX};
use bytemuck::{Pod, Zeroable};
use std::fmt;
use std::path::Path;

#[derive(Clone, Copy, Pod, Zeroable)]
#[repr(C, align(64))]
struct Block([u8; 64]);

/// A loaded, validated net. Cheap to share behind an `Arc`.
#[derive(Clone)]
pub struct Network {
    blocks: Vec<Block>,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Network {{ hidden: {HIDDEN}, checksum: {:016x} }}",
            self.checksum()
        )
    }
}

impl Network {
    /// Read and validate a net file.
    pub fn load(path: impl AsRef<Path>) -> Result<Network, NetError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|e| NetError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        Network::from_bytes(&bytes)
    }

    /// Validate a file image (e.g. from `include_bytes!`) and copy it into aligned memory.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        format::validate(bytes)?;
        let mut blocks = vec![Block([0; 64]); FILE_LEN / 64];
        bytemuck::cast_slice_mut::<Block, u8>(&mut blocks).copy_from_slice(bytes);
        let net = Network { blocks };
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

    /// Build a net from quantised parts (the trainer's export).
    pub fn from_parts(
        ft_weights: &[i16],
        ft_biases: &[i16],
        out_weights: &[i16],
        out_bias: i32,
    ) -> Result<Network, NetError> {
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
        check("out_weights", out_weights.len(), 2 * HIDDEN)?;
        let mut bytes = vec![0u8; FILE_LEN];
        bytes[FT_W_OFFSET..FT_B_OFFSET].copy_from_slice(bytemuck::cast_slice(ft_weights));
        bytes[FT_B_OFFSET..OUT_W_OFFSET].copy_from_slice(bytemuck::cast_slice(ft_biases));
        bytes[OUT_W_OFFSET..OUT_B_OFFSET].copy_from_slice(bytemuck::cast_slice(out_weights));
        bytes[OUT_B_OFFSET..OUT_B_OFFSET + 4].copy_from_slice(&out_bias.to_le_bytes());
        let sum = format::checksum(&bytes[HEADER_LEN..]);
        bytes[..HEADER_LEN].copy_from_slice(&format::header(sum));
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

    /// Output weights: side to move's `HIDDEN` first, then the opponent's.
    #[inline(always)]
    pub fn out_weights(&self) -> &[i16] {
        bytemuck::cast_slice(&self.as_bytes()[OUT_W_OFFSET..OUT_B_OFFSET])
    }

    /// The output weights of the side to move's and the opponent's hidden layer.
    #[inline(always)]
    pub fn out_halves(&self) -> (&[i16; HIDDEN], &[i16; HIDDEN]) {
        let (a, b) = self.out_weights().split_at(HIDDEN);
        (
            a.try_into().unwrap_or_else(|_| unreachable!()),
            b.try_into().unwrap_or_else(|_| unreachable!()),
        )
    }

    #[inline(always)]
    pub fn out_bias(&self) -> i32 {
        let b = self.as_bytes();
        i32::from_le_bytes([
            b[OUT_B_OFFSET],
            b[OUT_B_OFFSET + 1],
            b[OUT_B_OFFSET + 2],
            b[OUT_B_OFFSET + 3],
        ])
    }
}
