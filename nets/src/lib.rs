//! Qili's NNUE: net files, the quantised network and its inference, training data, the trainer.
//!
//! The net file format (`format`), the quantised network and its per-perspective
//! accumulators updated on make/unmake (`network`, `accumulator`, `simd`), a float
//! reference used by tests (`reference`), the packed training-data
//! format (`data`), resumable shards of it with their check and merge (`shard`,
//! `shard_merge`) and, with the `train` feature, a CPU trainer (`train`).
//!
//! Architecture 1 ("PSQ-SCReLU"): for each perspective, 1260 piece-square inputs
//! (90 points × 14 piece kinds, the board rotated for Black) feed a hidden layer of
//! `HIDDEN` i16 neurons; the side to move's and the opponent's layers, each through a
//! squared clipped ReLU, feed one output. Scores are centipawns from the side to move.
//!
//! Architecture 2 adds material output buckets: the hidden layer stays shared, and the
//! output layer has one head (weights and bias) per bucket, 1 to `buckets::MAX_BUCKETS`
//! of them; a position is scored by the head its piece count picks (`buckets::bucket`,
//! 2..=32 pieces cut into nearly equal runs). The bucket count is a property of the
//! loaded `Network` (from the file header), not of the build; one head is exactly
//! architecture 1.

pub mod accumulator;
pub mod buckets;
pub mod data;
pub mod features;
pub mod format;
pub mod network;
pub mod reference;
pub mod shard;
pub mod shard_merge;
pub mod simd;
/// The trainer (and the only user of rayon): built for `qili train`, not for the
/// engine that only plays.
#[cfg(feature = "train")]
pub mod train;

pub use accumulator::{Accumulator, AccumulatorStack};
pub use format::NetError;
pub use network::Network;
pub use simd::Backend;

/// Inputs per perspective: 14 piece kinds (own 7 first) × 90 points.
pub const INPUTS: usize = 14 * 90;
/// Hidden neurons per perspective.
pub const HIDDEN: usize = 256;
/// First-layer quantisation: a float activation of 1.0 is `QA` in the accumulator.
pub const QA: i32 = 255;
/// Output-layer quantisation: a float weight of 1.0 is `QB`.
pub const QB: i32 = 64;
/// The float output times `SCALE` is the evaluation in centipawns.
pub const SCALE: i32 = 400;
/// Output weights are kept within ±`OUT_WEIGHT_MAX / QB` so that
/// `clamp(acc, 0, QA) * w` fits in an i16 lane (255 × 127 = 32385).
pub const OUT_WEIGHT_MAX: i32 = 127;

// One perspective's output sum, `Σ clamp(acc, 0, QA)² · w`, is taken in i32 lanes
// (`simd::screlu_dot`: each lane of the narrowest kernel, AVX2's eight, sums
// `HIDDEN / 8` products) and the lanes are added in i64. No lane may overflow even
// with every activation saturated and every weight at the limit.
const _: () = assert!(
    (HIDDEN / 8) as i64 * (QA as i64 * QA as i64) * OUT_WEIGHT_MAX as i64 <= i32::MAX as i64
);

/// The file name of the embedded net (in `nets/net/`), the one `include_bytes!` reads.
macro_rules! embedded_net_file {
    () => {
        "qili-psq256b8-r19.nnue"
    };
}

/// The best net trained so far (round 19, 256 hidden neurons, 8 material output
/// heads: the round-18 net trained on with its own self-play, with left-right
/// mirroring; how it was made and matched: docs/NNUE.md), compiled into the binary;
/// it is the engine's default evaluation (`EvalFile <hce>` selects the handcrafted
/// one).
pub const EMBEDDED_NET: &[u8] = include_bytes!(concat!("../net/", embedded_net_file!()));

/// The file name of the embedded net (for reports such as `eval`).
pub const EMBEDDED_NET_FILE: &str = embedded_net_file!();

/// The embedded net, validated like a file.
pub fn embedded() -> Result<Network, NetError> {
    Network::from_bytes(EMBEDDED_NET)
}
