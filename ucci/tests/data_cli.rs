//! `qili datagen --resume` and `qili data check|merge` through the binary: a shard
//! killed midway (a cut record after its last finished game) and resumed is the same
//! bytes as one made in a single run, a merge leaves out a seed used twice, and
//! garbage is an error message, not a crash. Small games (few nodes) keep it fast.

mod common;
use common::cli::{qili, text};

use std::path::{Path, PathBuf};
use std::process::Output;

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("qili-data-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn datagen(out: &Path, seed: &str, games: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "datagen",
        "--games",
        games,
        "--nodes",
        "60",
        "--max-plies",
        "80",
        "--seed",
        seed,
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let o = qili(&args);
    assert!(o.status.success(), "{}", text(&o));
    o
}

fn sidecar(p: &Path) -> PathBuf {
    PathBuf::from(format!("{}.games", p.display()))
}

#[test]
fn a_killed_shard_resumes_to_the_bytes_of_one_run() {
    let d = temp_dir("resume");
    let (whole, part) = (d.join("whole.bin"), d.join("part.bin"));
    datagen(&whole, "5", "4", &[]);
    datagen(&part, "5", "2", &[]);
    let done = std::fs::read(&part).unwrap();
    assert!(done.len() >= 64, "two games keep some positions");
    // The kill: 40 bytes of a game's records past the last finished game.
    std::fs::write(&part, [&done[..], &done[..40]].concat()).unwrap();
    let o = datagen(&part, "5", "4", &["--resume"]);
    assert!(
        text(&o).contains("after 2 finished games") && text(&o).contains("trimmed 40 bytes"),
        "{}",
        text(&o)
    );
    assert_eq!(
        std::fs::read(&whole).unwrap(),
        std::fs::read(&part).unwrap()
    );
    assert_eq!(
        std::fs::read(sidecar(&whole)).unwrap(),
        std::fs::read(sidecar(&part)).unwrap()
    );
    // Other options than the shard's: refused, the shard untouched.
    let o = qili(&[
        "datagen",
        "--resume",
        "--games",
        "5",
        "--nodes",
        "61",
        "--max-plies",
        "80",
        "--seed",
        "5",
        "--out",
        part.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(
        text(&o).contains("resuming would mix games"),
        "{}",
        text(&o)
    );
    assert_eq!(
        std::fs::read(&whole).unwrap(),
        std::fs::read(&part).unwrap()
    );
}

#[test]
fn check_and_merge_leave_out_a_repeated_seed_and_a_cut_record() {
    let d = temp_dir("merge");
    let (a, b, c) = (d.join("a.bin"), d.join("b.bin"), d.join("c.bin"));
    datagen(&a, "1", "3", &[]);
    datagen(&b, "2", "3", &[]);
    datagen(&c, "1", "3", &[]);
    let mut bytes_b = std::fs::read(&b).unwrap();
    let want = [std::fs::read(&a).unwrap(), bytes_b.clone()].concat();
    bytes_b.extend_from_slice(&[0u8; 17]);
    std::fs::write(&b, &bytes_b).unwrap();
    let paths = [
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        c.to_str().unwrap(),
    ];
    let check = qili(&[&["data", "check"][..], &paths[..]].concat());
    assert!(check.status.success(), "{}", text(&check));
    let t = text(&check);
    assert!(t.contains("cut record: 17 bytes"), "{t}");
    assert!(
        t.contains("c.bin seed 1 game ") && t.contains("repeats"),
        "{t}"
    );
    let out = d.join("all.bin");
    let merge = qili(
        &[
            &["data", "merge", "--out", out.to_str().unwrap()][..],
            &paths[..],
        ]
        .concat(),
    );
    assert!(merge.status.success(), "{}", text(&merge));
    assert_eq!(std::fs::read(&out).unwrap(), want);
    // The checksum check prints is the merge's.
    let fnv = |t: &str| {
        t.lines()
            .find(|l| l.starts_with("merge:"))
            .map(str::to_string)
    };
    let m = text(&merge);
    assert_eq!(fnv(&t), fnv(&m));
    assert!(fnv(&t).is_some_and(|l| !l.contains(" 0 duplicates")), "{t}");
}

#[test]
fn garbage_is_an_error_message() {
    let d = temp_dir("garbage");
    let g = d.join("g.bin");
    std::fs::write(&g, vec![0xffu8; 96]).unwrap();
    let o = qili(&["data", "check", g.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(text(&o).contains("g.bin: record 0"), "{}", text(&o));
    let missing = d.join("none.bin");
    let o = qili(&["data", "check", missing.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(text(&o).contains("none.bin"), "{}", text(&o));
}
