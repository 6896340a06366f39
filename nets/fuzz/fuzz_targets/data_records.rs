//! Training data from a file: every 32-byte record either fails `check` or is a record
//! the trainer can use without panicking (in-range features, one per piece), and
//! one that decodes to a legal position packs back to the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nets::data::PackedPosition;

fuzz_target!(|data: &[u8]| {
    let (mut us, mut them) = (Vec::new(), Vec::new());
    for chunk in data.chunks_exact(32) {
        let r: PackedPosition = bytemuck::pod_read_unaligned(chunk);
        if r.check().is_err() {
            continue;
        }
        r.features(&mut us, &mut them);
        assert!(us.iter().chain(&them).all(|&f| f < nets::INPUTS));
        assert_eq!(us.len(), r.piece_count() as usize);
        assert_eq!(them.len(), us.len());
        let _ = r.outcome().value();
        if let Ok(pos) = r.to_position() {
            assert_eq!(PackedPosition::pack(&pos, r.score(), r.outcome()), r);
        }
    }
});
