//! A board diagram in Chinese glyphs, the way a xiangqi player reads a position:
//! Black at the top with its file numbers １–９ (counted from Black's right, so
//! file １ is ICCS `a`), Red at the bottom with 九–一 (counted from Red's right, so
//! file 一 is ICCS `i`), the river between ranks 4 and 5, and the ICCS rank
//! numbers and file letters beside and under the board so that a coordinate move
//! can be checked against it.
//!
//! Red and Black pieces of the same kind get different glyphs (帥仕相傌俥炮兵 for
//! Red, 將士象馬車砲卒 for Black), as on a traditional set, so the diagram reads
//! right without colour.

use crate::position::Position;
use crate::types::{Color, Piece, PieceKind, Square};

/// The glyph of a piece on a traditional set.
pub const fn glyph(p: Piece) -> char {
    match (p.color, p.kind) {
        (Color::Red, PieceKind::King) => '帥',
        (Color::Red, PieceKind::Advisor) => '仕',
        (Color::Red, PieceKind::Elephant) => '相',
        (Color::Red, PieceKind::Knight) => '傌',
        (Color::Red, PieceKind::Rook) => '俥',
        (Color::Red, PieceKind::Cannon) => '炮',
        (Color::Red, PieceKind::Pawn) => '兵',
        (Color::Black, PieceKind::King) => '將',
        (Color::Black, PieceKind::Advisor) => '士',
        (Color::Black, PieceKind::Elephant) => '象',
        (Color::Black, PieceKind::Knight) => '馬',
        (Color::Black, PieceKind::Rook) => '車',
        (Color::Black, PieceKind::Cannon) => '砲',
        (Color::Black, PieceKind::Pawn) => '卒',
    }
}

/// An empty point (full width, so the columns line up with the glyphs).
const EMPTY: char = '＋';
const BLACK_FILES: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
const RED_FILES: [char; 9] = ['九', '八', '七', '六', '五', '四', '三', '二', '一'];

/// The diagram of `pos`: 14 lines, the last naming the side to move and the FEN.
pub fn chinese_board(pos: &Position) -> String {
    let mut out = String::new();
    let row = |cells: &mut dyn Iterator<Item = char>| -> String {
        let v: Vec<String> = cells.map(|c| c.to_string()).collect();
        v.join(" ")
    };
    out += &format!("   {}\n", row(&mut BLACK_FILES.iter().copied()));
    for rank in (0..10u8).rev() {
        let cells = (0..9u8).map(|file| pos.piece_at(Square::new(file, rank)).map_or(EMPTY, glyph));
        out += &format!("{rank}  {}\n", row(&mut cells.into_iter()));
        if rank == 5 {
            out += "   ───── 楚  河 ─────── 漢  界 ─────\n";
        }
    }
    out += &format!("   {}\n", row(&mut RED_FILES.iter().copied()));
    out += "   a  b  c  d  e  f  g  h  i\n";
    let side = match pos.side_to_move() {
        Color::Red => "红方 (Red)",
        Color::Black => "黑方 (Black)",
    };
    out += &format!("{side} to move; FEN {}\n", pos.to_fen());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_reads_as_a_player_sees_it() {
        let text = chinese_board(&Position::startpos());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 15);
        assert_eq!(lines[0], "   １ ２ ３ ４ ５ ６ ７ ８ ９");
        assert_eq!(lines[1], "9  車 馬 象 士 將 士 象 馬 車");
        assert_eq!(lines[3], "7  ＋ 砲 ＋ ＋ ＋ ＋ ＋ 砲 ＋");
        assert!(lines[6].contains("楚  河") && lines[6].contains("漢  界"));
        assert_eq!(lines[11], "0  俥 傌 相 仕 帥 仕 相 傌 俥");
        assert_eq!(lines[12], "   九 八 七 六 五 四 三 二 一");
        assert_eq!(lines[13], "   a  b  c  d  e  f  g  h  i");
        assert!(lines[14].starts_with("红方 (Red) to move; FEN rnbakabnr/"));
        // Every board row has nine cells under the nine file numbers.
        for l in &lines[1..12] {
            if !l.contains('河') {
                assert_eq!(l.chars().filter(|c| !c.is_ascii()).count(), 9, "{l}");
            }
        }
    }

    #[test]
    fn file_numbers_match_the_notation() {
        // 炮二平五 is h2e2: Red's file 二 is column h, 五 is e; Black's ２ is b.
        let text = chinese_board(&Position::startpos());
        let lines: Vec<&str> = text.lines().collect();
        // Display column: a full-width glyph takes two.
        let col = |line: &str, c: char| -> usize {
            line.chars()
                .take_while(|&x| x != c)
                .map(|x| if x.is_ascii() { 1 } else { 2 })
                .sum()
        };
        assert_eq!(col(lines[12], '二'), col(lines[13], 'h'));
        assert_eq!(col(lines[12], '五'), col(lines[13], 'e'));
        assert_eq!(col(lines[0], '２'), col(lines[13], 'b'));
        // Glyphs are distinct for the two sides.
        let mut all: Vec<char> = Vec::new();
        for c in Color::BOTH {
            for k in PieceKind::ALL {
                all.push(glyph(Piece::new(c, k)));
            }
        }
        all.sort();
        all.dedup();
        assert_eq!(all.len(), 14);
    }
}
