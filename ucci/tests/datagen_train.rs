//! `qili datagen` writes valid, quiet, reproducible records, and `qili train` on them
//! lowers the validation loss and writes a net that loads.

use nets::data;
use std::process::Command;

fn tmp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("qili-dgt-{}-{name}", std::process::id()))
}

/// `games` games of shard `seed` from game index `first`.
fn datagen(seed: u64, first: u64, games: u64, out: &std::path::Path) {
    let r = Command::new(env!("CARGO_BIN_EXE_qili"))
        .args(["datagen", "--nodes", "300", "--max-plies", "150"])
        .args(["--games", &games.to_string()])
        .args(["--first-game", &first.to_string()])
        .args(["--seed", &seed.to_string(), "--out"])
        .arg(out)
        .output()
        .expect("run qili datagen");
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert!(String::from_utf8_lossy(&r.stdout).contains(&format!("games {games} positions")));
}

fn losses(stdout: &str) -> (f64, f64) {
    let after = |line: &str, key: &str| -> Option<f64> {
        let i = line.find(key)? + key.len();
        line[i..].split_whitespace().next()?.parse().ok()
    };
    let first = stdout
        .lines()
        .find_map(|l| after(l, "initial validation loss"))
        .expect("initial loss");
    let last = stdout
        .lines()
        .rev()
        .find_map(|l| after(l, "validation loss"))
        .expect("epoch loss");
    (first, last)
}

#[test]
fn datagen_then_train() {
    let (a, b, c, d) = (tmp("a.bin"), tmp("b.bin"), tmp("c.bin"), tmp("d.bin"));
    datagen(7, 0, 3, &a);
    datagen(7, 0, 3, &b);
    datagen(8, 0, 3, &c);
    // Games 1 and 2 alone, as a continued shard plays them.
    datagen(7, 1, 2, &d);
    let recs = data::read_file(&a).expect("valid records");
    assert!(recs.len() > 50, "only {} positions", recs.len());
    let bytes = std::fs::read(&a).expect("read");
    assert_eq!(
        bytes,
        std::fs::read(&b).expect("read"),
        "same seed, same data"
    );
    assert_ne!(
        bytes,
        std::fs::read(&c).expect("read"),
        "other seed, other games"
    );
    let tail = std::fs::read(&d).expect("read");
    assert!(
        !tail.is_empty() && tail.len() < bytes.len() && bytes.ends_with(&tail),
        "--first-game 1 --games 2 writes the last two games' records"
    );
    for (p, r) in data::decode_positions(&recs)
        .expect("legal positions")
        .iter()
        .zip(&recs)
    {
        assert!(!p.in_check(), "kept a position in check: {}", p.to_fen());
        assert!(r.score().abs() <= 3000);
    }

    let net = tmp("n.nnue");
    let r = Command::new(env!("CARGO_BIN_EXE_qili"))
        .args(["train", "--data"])
        .arg(&a)
        .arg(&c)
        .args([
            "--epochs", "4", "--batch", "32", "--lr", "0.003", "--val", "0.2", "--out",
        ])
        .arg(&net)
        .output()
        .expect("run qili train");
    let stdout = String::from_utf8_lossy(&r.stdout).to_string();
    assert!(
        r.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&r.stderr)
    );
    let (first, last) = losses(&stdout);
    assert!(last < first, "validation loss {first} -> {last}\n{stdout}");
    nets::Network::load(&net).expect("the written net loads");

    // A bad data file is an error, not a crash.
    std::fs::write(&b, [1u8; 31]).expect("write");
    let r = Command::new(env!("CARGO_BIN_EXE_qili"))
        .args(["train", "--data"])
        .arg(&b)
        .arg("--out")
        .arg(&net)
        .output()
        .expect("run qili train");
    assert!(!r.status.success());
    assert!(String::from_utf8_lossy(&r.stderr).contains("not a multiple"));
    for p in [a, b, c, d, net] {
        let _ = std::fs::remove_file(p);
    }
}
