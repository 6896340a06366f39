//! FNV-1a 64: the payload checksum of the book and net file formats. Enough to
//! catch corruption; not an authenticity check.

pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h = Fnv1a64::default();
    h.update(bytes);
    h.value()
}

/// FNV-1a 64 streamed: `update` with the pieces in order gives `fnv1a64` of them
/// joined (the data shards' per-game and whole-file checksums).
#[derive(Clone, Copy, Debug)]
pub struct Fnv1a64(u64);

impl Default for Fnv1a64 {
    fn default() -> Fnv1a64 {
        Fnv1a64(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a64 {
    pub fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    pub fn value(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::fnv1a64;

    #[test]
    fn reference_values() {
        // The FNV-1a 64 test vectors of the reference implementation.
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
        let mut h = super::Fnv1a64::default();
        h.update(b"foo");
        h.update(b"bar");
        assert_eq!(h.value(), 0x8594_4171_f739_67e8);
    }
}
