//! GBK (code page 936), the text encoding of XQF files and of most Chinese game
//! collections, decoded and encoded by table: `gbk.bin` holds the 126 × 190 double-byte
//! cells (written by `rules/tools/gen_gbk.py` from Python's `gbk` codec).

static TABLE: &[u8; 47880] = include_bytes!("gbk.bin");

const TRAILS: usize = 190;

/// The character of the double byte `lead trail`, if GBK defines one.
fn cell(lead: u8, trail: u8) -> Option<char> {
    if !(0x81..=0xFE).contains(&lead) || !(0x40..=0xFE).contains(&trail) || trail == 0x7F {
        return None;
    }
    let t = (trail - 0x40) as usize - (trail > 0x7F) as usize;
    let i = ((lead - 0x81) as usize * TRAILS + t) * 2;
    let code = u16::from_le_bytes([TABLE[i], TABLE[i + 1]]);
    if code == 0 {
        None
    } else {
        char::from_u32(code as u32)
    }
}

/// Decode GBK bytes; a byte sequence GBK does not define becomes U+FFFD.
pub fn decode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b < 0x80 {
            out.push(b as char);
            i += 1;
        } else if let Some(c) = bytes.get(i + 1).and_then(|&t| cell(b, t)) {
            out.push(c);
            i += 2;
        } else {
            out.push('\u{fffd}');
            i += 1;
        }
    }
    out
}

/// Encode text as GBK; a character GBK lacks becomes `?`. (Used by the record writers.)
pub fn encode(text: &str) -> Vec<u8> {
    static REVERSE: std::sync::OnceLock<Vec<(u16, [u8; 2])>> = std::sync::OnceLock::new();
    let mut out = Vec::with_capacity(text.len());
    for c in text.chars() {
        if (c as u32) < 0x80 {
            out.push(c as u8);
            continue;
        }
        let table = REVERSE.get_or_init(reverse_table);
        match table.binary_search_by_key(&(c as u32), |&(u, _)| u as u32) {
            Ok(k) => out.extend_from_slice(&table[k].1),
            Err(_) => out.push(b'?'),
        }
    }
    out
}

/// (Unicode, GBK bytes) for every cell, sorted by the character.
fn reverse_table() -> Vec<(u16, [u8; 2])> {
    let mut v = Vec::with_capacity(22000);
    for lead in 0x81u8..=0xFE {
        for trail in 0x40u8..=0xFE {
            if let Some(c) = cell(lead, trail) {
                v.push((c as u32 as u16, [lead, trail]));
            }
        }
    }
    v.sort_unstable();
    v.dedup_by_key(|e| e.0);
    v
}

/// Text of a file: UTF-8 when it is valid UTF-8 (a byte-order mark dropped), else GBK.
pub fn decode_text(bytes: &[u8]) -> String {
    let b = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(bytes);
    match std::str::from_utf8(b) {
        Ok(s) => s.to_string(),
        Err(_) => decode(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_characters_round_trip() {
        // 红 = BA EC, 黑 = BA DA, 车 = B3 B5, 将 = BD AB in GB2312 (a subset of GBK).
        assert_eq!(decode(&[0xBA, 0xEC, 0xBA, 0xDA]), "红黑");
        assert_eq!(
            encode("车将 a1"),
            vec![0xB3, 0xB5, 0xBD, 0xAB, b' ', b'a', b'1']
        );
        let text = "象棋演播室 炮二平五 马８进７ 許銀川";
        assert_eq!(decode(&encode(text)), text);
    }

    #[test]
    fn bad_bytes_are_replaced_never_a_panic() {
        assert_eq!(decode(&[0x81]), "\u{fffd}");
        assert_eq!(decode(&[0xFF, 0x41]), "\u{fffd}A");
        assert_eq!(decode(&[0x81, 0x7F]), "\u{fffd}\u{7f}");
        assert_eq!(encode("😀"), b"?");
        assert_eq!(decode_text("车".as_bytes()), "车");
        assert_eq!(decode_text(&[0xB3, 0xB5]), "车");
    }
}
