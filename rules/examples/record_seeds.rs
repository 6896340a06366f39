//! Seed inputs for the record fuzz targets (`rules/fuzz`): writes a few XQF files
//! (plain and encrypted), DhtmlXQ texts and PGN texts into the folder given.
//! `cargo run --release -p qili-rules --example record_seeds -- DIR`

use rules::pgn::{GameRecord, GameResult};
use rules::records::xqf::{self, KeyBytes, WriteAs};
use rules::records::{dhtmlxq, gbk};
use rules::Move;

fn main() {
    let dir = std::env::args().nth(1).expect("usage: record_seeds DIR");
    for sub in ["xqf", "dhtmlxq", "pgn"] {
        std::fs::create_dir_all(format!("{dir}/{sub}")).expect("create folder");
    }
    let mut games = Vec::new();
    let mut g = GameRecord::new(None);
    g.set_tag("Event", "测试");
    g.set_tag("Red", "红");
    g.set_tag("Black", "黑");
    g.comment = Some("开局".into());
    for m in ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"] {
        g.push(Move::parse_iccs(m).unwrap(), Some("注".into()));
    }
    g.result = GameResult::RedWins;
    games.push(g);
    let mut s = GameRecord::new(Some("3k5/4a4/9/9/9/9/9/9/9/4K1R2 b - - 0 1"));
    for m in ["d9e9", "g0f0", "e9d9", "f0g0"] {
        s.push(Move::parse_iccs(m).unwrap(), None);
    }
    games.push(s);
    let keys = KeyBytes {
        mask: 0x5A,
        or: [1, 2, 3, 4],
        seeds: [9, 8, 7, 6],
    };
    for (i, g) in games.iter().enumerate() {
        let w = |name: String, bytes: Vec<u8>| {
            std::fs::write(format!("{dir}/{name}"), bytes).expect("write")
        };
        w(
            format!("xqf/{i}-plain.xqf"),
            xqf::write(g, WriteAs::Plain).unwrap(),
        );
        for v in [11, 12, 18] {
            w(
                format!("xqf/{i}-v{v}.xqf"),
                xqf::write(g, WriteAs::Encrypted { version: v, keys }).unwrap(),
            );
        }
        let text = dhtmlxq::write(g).unwrap();
        w(format!("dhtmlxq/{i}.txt"), text.clone().into_bytes());
        w(format!("dhtmlxq/{i}-gbk.txt"), gbk::encode(&text));
        w(format!("pgn/{i}.pgn"), g.to_pgn().into_bytes());
    }
    std::fs::write(
        format!("{dir}/pgn/chinese.pgn"),
        "{开局} 1. 炮二平五 马８进７ 2. H2+3 i9h9 *\n",
    )
    .expect("write");
}
