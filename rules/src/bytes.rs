//! Little-endian numbers at an offset of a byte slice: the fields of the book and net
//! file headers and the book's records. Each panics when the slice ends before the
//! number does; the file readers check the length first.

pub fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes(bytes_at(b, at))
}

pub fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes_at(b, at))
}

pub fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes_at(b, at))
}

fn bytes_at<const N: usize>(b: &[u8], at: usize) -> [u8; N] {
    let mut x = [0u8; N];
    x.copy_from_slice(&b[at..at + N]);
    x
}

#[cfg(test)]
mod tests {
    use super::{u16_at, u32_at, u64_at};

    #[test]
    fn little_endian_at_an_offset() {
        let b = [0xff, 1, 2, 3, 4, 5, 6, 7, 8];
        assert_eq!(u16_at(&b, 1), 0x0201);
        assert_eq!(u32_at(&b, 1), 0x0403_0201);
        assert_eq!(u64_at(&b, 1), 0x0807_0605_0403_0201);
        assert_eq!(u16_at(&b, 7), 0x0807);
    }

    #[test]
    #[should_panic]
    fn a_number_past_the_end_panics() {
        u32_at(&[0; 6], 3);
    }
}
