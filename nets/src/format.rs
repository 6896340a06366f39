//! The net file: a 64-byte little-endian header followed by the weights.
//!
//! ```text
//! offset size  field
//!  0      8    magic "QILINNUE"
//!  8      4    format version (1)
//! 12      4    architecture id: 1 = PSQ inputs, one SCReLU hidden layer, one output;
//!              2 = the same with material output buckets (one output head per bucket,
//!              chosen by the piece count, see `buckets`)
//! 16      4    feature set id (1 = 14 kinds × 90 points per perspective, Black rotated)
//! 20      4    hidden neurons per perspective
//! 24      4    QA, 28: QB, 32: SCALE (quantisation of the first layer, the output layer,
//!              and the centipawn scale of the float output)
//! 36      4    architecture 1: reserved (0, meaning one head);
//!              architecture 2: output buckets B, 1..=MAX_BUCKETS
//! 40      8    payload length in bytes (depends on B)
//! 48      8    FNV-1a 64 checksum of the payload
//! 56      8    reserved (0)
//! 64      …    payload: first-layer weights i16[INPUTS × HIDDEN] (feature-major: the
//!              HIDDEN weights of feature f are contiguous), first-layer biases i16[HIDDEN],
//!              output weights i16[B × 2 × HIDDEN] (head-major; in each head the side to
//!              move's half first), output biases i32[B], zero padding to a multiple of
//!              64 bytes.
//! ```
//! With B = 1 both architectures lay out the same payload; the writer uses
//! architecture 1 for one head, so one-head nets stay readable by older builds.
//! Every mismatch is a typed `NetError`; nothing is guessed or silently replaced.

use crate::buckets::MAX_BUCKETS;
use crate::{HIDDEN, INPUTS, OUT_WEIGHT_MAX, QA, QB, SCALE};
use rules::bytes::{u32_at, u64_at};
use std::fmt;

pub const MAGIC: [u8; 8] = *b"QILINNUE";
pub const VERSION: u32 = 1;
pub const ARCH_PSQ_SCRELU: u32 = 1;
pub const ARCH_PSQ_SCRELU_BUCKETS: u32 = 2;
pub const FEATURES_PSQ_1260: u32 = 1;
pub const HEADER_LEN: usize = 64;

pub const FT_WEIGHTS: usize = INPUTS * HIDDEN;
pub const FT_W_OFFSET: usize = HEADER_LEN;
pub const FT_B_OFFSET: usize = FT_W_OFFSET + 2 * FT_WEIGHTS;
pub const OUT_W_OFFSET: usize = FT_B_OFFSET + 2 * HIDDEN;

/// Offset of the output biases of a net with `buckets` heads.
pub const fn out_b_offset(buckets: usize) -> usize {
    out_b_offset_of(HIDDEN, buckets)
}

/// Payload bytes as stored (padded to 64) for `buckets` heads.
pub const fn payload_len(buckets: usize) -> usize {
    payload_len_of(HIDDEN, buckets)
}

/// Whole-file bytes for `buckets` heads.
pub const fn file_len(buckets: usize) -> usize {
    HEADER_LEN + payload_len(buckets)
}

/// `out_b_offset` of a file with `hidden` neurons (a file of another width is
/// read only to widen it, `read_narrower`).
const fn out_b_offset_of(hidden: usize, buckets: usize) -> usize {
    HEADER_LEN + 2 * INPUTS * hidden + 2 * hidden + 2 * 2 * hidden * buckets
}

const fn payload_len_of(hidden: usize, buckets: usize) -> usize {
    (out_b_offset_of(hidden, buckets) + 4 * buckets - HEADER_LEN).div_ceil(64) * 64
}

/// Output-bias offset of a one-head (architecture 1) net.
pub const OUT_B_OFFSET: usize = out_b_offset(1);
/// Payload bytes of a one-head (architecture 1) net.
pub const PAYLOAD_LEN: usize = payload_len(1);
/// File bytes of a one-head (architecture 1) net.
pub const FILE_LEN: usize = file_len(1);

/// Why a net could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetError {
    /// The file could not be read or written.
    Io {
        path: String,
        message: String,
    },
    /// Shorter than the header.
    TooShort {
        len: usize,
    },
    BadMagic,
    UnsupportedVersion {
        found: u32,
        supported: u32,
    },
    /// An architecture id this build does not run (`expected`: the newest it runs;
    /// it runs every id from 1 to that).
    ArchitectureMismatch {
        found: u32,
        expected: u32,
    },
    /// Architecture 2 with an output-bucket count outside 1..=MAX_BUCKETS.
    BadBucketCount {
        found: u32,
        max: u32,
    },
    FeatureSetMismatch {
        found: u32,
        expected: u32,
    },
    HiddenMismatch {
        found: u32,
        expected: u32,
    },
    QuantisationMismatch {
        found: [u32; 3],
        expected: [u32; 3],
    },
    /// The header declares a payload length other than the architecture's.
    PayloadLengthMismatch {
        declared: u64,
        expected: u64,
    },
    /// The file ends before the payload does.
    Truncated {
        len: usize,
        expected: usize,
    },
    /// Bytes after the payload.
    TrailingBytes {
        len: usize,
        expected: usize,
    },
    ChecksumMismatch {
        stored: u64,
        computed: u64,
    },
    /// Reserved header bytes or payload padding are not zero.
    NonZeroReserved,
    /// An output weight outside ±OUT_WEIGHT_MAX (inference would overflow).
    OutputWeightOutOfRange {
        index: usize,
        value: i16,
    },
    /// The weights are stored little-endian; this machine is not.
    BigEndianHost,
    /// Parts given to `Network::from_parts` have the wrong lengths.
    WrongPartLength {
        part: &'static str,
        len: usize,
        expected: usize,
    },
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Io { path, message } => write!(f, "cannot access net file {path}: {message}"),
            NetError::TooShort { len } => {
                write!(
                    f,
                    "net file is {len} bytes, shorter than the {HEADER_LEN}-byte header"
                )
            }
            NetError::BadMagic => f.write_str("not a Qili net file (bad magic)"),
            NetError::UnsupportedVersion { found, supported } => {
                write!(
                    f,
                    "net format version {found} is not supported (this build reads {supported})"
                )
            }
            NetError::ArchitectureMismatch { found, expected } => {
                write!(
                    f,
                    "net architecture {found}, this build runs 1 to {expected}"
                )
            }
            NetError::BadBucketCount { found, max } => {
                write!(f, "net has {found} output buckets, need 1 to {max}")
            }
            NetError::FeatureSetMismatch { found, expected } => {
                write!(f, "net feature set {found}, this build uses {expected}")
            }
            NetError::HiddenMismatch { found, expected } => {
                write!(
                    f,
                    "net has {found} hidden neurons, this build has {expected}"
                )
            }
            NetError::QuantisationMismatch { found, expected } => write!(
                f,
                "net quantisation (QA, QB, SCALE) = {found:?}, this build uses {expected:?}"
            ),
            NetError::PayloadLengthMismatch { declared, expected } => write!(
                f,
                "net header declares a {declared}-byte payload, the architecture needs {expected}"
            ),
            NetError::Truncated { len, expected } => {
                write!(f, "net file truncated: {len} bytes, expected {expected}")
            }
            NetError::TrailingBytes { len, expected } => {
                write!(
                    f,
                    "net file has trailing bytes: {len} bytes, expected {expected}"
                )
            }
            NetError::ChecksumMismatch { stored, computed } => write!(
                f,
                "net file corrupt: checksum {computed:016x}, header says {stored:016x}"
            ),
            NetError::NonZeroReserved => {
                f.write_str("net file corrupt: reserved bytes are not zero")
            }
            NetError::OutputWeightOutOfRange { index, value } => write!(
                f,
                "net output weight {index} is {value}, outside ±{OUT_WEIGHT_MAX}"
            ),
            NetError::BigEndianHost => {
                f.write_str("net files are little-endian; this host is big-endian")
            }
            NetError::WrongPartLength {
                part,
                len,
                expected,
            } => {
                write!(f, "net part {part} has {len} values, expected {expected}")
            }
        }
    }
}

impl std::error::Error for NetError {}

/// The payload checksum of the header: FNV-1a 64.
pub use rules::checksum::fnv1a64 as checksum;

/// The header of a net with `buckets` heads (architecture 1 for one head, 2 for more)
/// and a payload with `checksum`.
pub fn header(checksum: u64, buckets: usize) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[0..8].copy_from_slice(&MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    let (arch, stored_buckets) = if buckets == 1 {
        (ARCH_PSQ_SCRELU, 0)
    } else {
        (ARCH_PSQ_SCRELU_BUCKETS, buckets as u32)
    };
    h[12..16].copy_from_slice(&arch.to_le_bytes());
    h[16..20].copy_from_slice(&FEATURES_PSQ_1260.to_le_bytes());
    h[20..24].copy_from_slice(&(HIDDEN as u32).to_le_bytes());
    h[24..28].copy_from_slice(&(QA as u32).to_le_bytes());
    h[28..32].copy_from_slice(&(QB as u32).to_le_bytes());
    h[32..36].copy_from_slice(&(SCALE as u32).to_le_bytes());
    h[36..40].copy_from_slice(&stored_buckets.to_le_bytes());
    h[40..48].copy_from_slice(&(payload_len(buckets) as u64).to_le_bytes());
    h[48..56].copy_from_slice(&checksum.to_le_bytes());
    h
}

/// Check a whole file image (header and payload) against the architectures this build
/// runs and return its number of output heads. The checks run from the cheapest and
/// most telling (magic, version) to the checksum.
pub fn validate(bytes: &[u8]) -> Result<usize, NetError> {
    check(bytes, false).map(|(_, buckets)| buckets)
}

/// `validate`, or for narrower widths only when `any_width`: (width, heads).
fn check(bytes: &[u8], any_width: bool) -> Result<(usize, usize), NetError> {
    if cfg!(target_endian = "big") {
        return Err(NetError::BigEndianHost);
    }
    // A file that does not even start like a net is "not a net", whatever its length.
    if bytes.len() >= 8 && bytes[0..8] != MAGIC {
        return Err(NetError::BadMagic);
    }
    if bytes.len() < HEADER_LEN {
        return Err(NetError::TooShort { len: bytes.len() });
    }
    let version = u32_at(bytes, 8);
    if version != VERSION {
        return Err(NetError::UnsupportedVersion {
            found: version,
            supported: VERSION,
        });
    }
    let arch = u32_at(bytes, 12);
    if arch != ARCH_PSQ_SCRELU && arch != ARCH_PSQ_SCRELU_BUCKETS {
        return Err(NetError::ArchitectureMismatch {
            found: arch,
            expected: ARCH_PSQ_SCRELU_BUCKETS,
        });
    }
    let feats = u32_at(bytes, 16);
    if feats != FEATURES_PSQ_1260 {
        return Err(NetError::FeatureSetMismatch {
            found: feats,
            expected: FEATURES_PSQ_1260,
        });
    }
    let hidden = u32_at(bytes, 20);
    let width_ok = if any_width {
        narrower_width_ok(hidden)
    } else {
        hidden == HIDDEN as u32
    };
    if !width_ok {
        return Err(NetError::HiddenMismatch {
            found: hidden,
            expected: HIDDEN as u32,
        });
    }
    let width = hidden as usize;
    let quant = [u32_at(bytes, 24), u32_at(bytes, 28), u32_at(bytes, 32)];
    let expected_quant = [QA as u32, QB as u32, SCALE as u32];
    if quant != expected_quant {
        return Err(NetError::QuantisationMismatch {
            found: quant,
            expected: expected_quant,
        });
    }
    if u64_at(bytes, 56) != 0 {
        return Err(NetError::NonZeroReserved);
    }
    let buckets = match (arch, u32_at(bytes, 36)) {
        (ARCH_PSQ_SCRELU, 0) => 1,
        (ARCH_PSQ_SCRELU, _) => return Err(NetError::NonZeroReserved),
        (_, n) if (1..=MAX_BUCKETS as u32).contains(&n) => n as usize,
        (_, n) => {
            return Err(NetError::BadBucketCount {
                found: n,
                max: MAX_BUCKETS as u32,
            })
        }
    };
    let payload = payload_len_of(width, buckets);
    let file = HEADER_LEN + payload;
    let declared = u64_at(bytes, 40);
    if declared != payload as u64 {
        return Err(NetError::PayloadLengthMismatch {
            declared,
            expected: payload as u64,
        });
    }
    if bytes.len() < file {
        return Err(NetError::Truncated {
            len: bytes.len(),
            expected: file,
        });
    }
    if bytes.len() > file {
        return Err(NetError::TrailingBytes {
            len: bytes.len(),
            expected: file,
        });
    }
    let stored = u64_at(bytes, 48);
    let computed = checksum(&bytes[HEADER_LEN..]);
    if stored != computed {
        return Err(NetError::ChecksumMismatch { stored, computed });
    }
    if bytes[out_b_offset_of(width, buckets) + 4 * buckets..]
        .iter()
        .any(|&b| b != 0)
    {
        return Err(NetError::NonZeroReserved);
    }
    Ok((width, buckets))
}

/// A hidden-layer width that `read_narrower` accepts: narrower than this build's,
/// a whole number of the widest SIMD registers.
fn narrower_width_ok(hidden: u32) -> bool {
    hidden > 0 && hidden < HIDDEN as u32 && hidden.is_multiple_of(32)
}

/// A valid net file of a narrower hidden layer than this build's (a net of an
/// earlier round, to be widened for training): its width, and its weights as
/// stored (first-layer weights feature-major, biases, output weights head-major,
/// output biases).
pub struct NarrowNet {
    pub hidden: usize,
    pub ft_w: Vec<i16>,
    pub ft_b: Vec<i16>,
    pub out_w: Vec<i16>,
    pub out_b: Vec<i32>,
}

/// A net file's bytes, a read failure as `NetError::Io`.
pub fn read_file(path: &std::path::Path) -> Result<Vec<u8>, NetError> {
    std::fs::read(path).map_err(|e| NetError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    })
}

/// Read a whole file image of a net with fewer hidden neurons than this build
/// (checked like `validate` in every other respect; any other width, this build's
/// own included, is `HiddenMismatch`).
pub fn read_narrower(bytes: &[u8]) -> Result<NarrowNet, NetError> {
    let (hidden, buckets) = check(bytes, true)?;
    let i16s = |from: usize, n: usize| -> Vec<i16> {
        bytes[from..from + 2 * n]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect()
    };
    let ft_b_at = HEADER_LEN + 2 * INPUTS * hidden;
    let out_w_at = ft_b_at + 2 * hidden;
    let out_b_at = out_b_offset_of(hidden, buckets);
    Ok(NarrowNet {
        hidden,
        ft_w: i16s(HEADER_LEN, INPUTS * hidden),
        ft_b: i16s(ft_b_at, hidden),
        out_w: i16s(out_w_at, buckets * 2 * hidden),
        out_b: bytes[out_b_at..out_b_at + 4 * buckets]
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
    })
}
