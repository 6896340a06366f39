//! `qili data check|merge`: read shards (with or without their `.games` sidecars, see
//! `shard`), report what each holds, find duplicated games, and write the merge.
//! Check and merge are one scan, so the merged checksum `check` prints is the one of
//! the file `merge` writes.
//!
//! What is kept from a shard: its sidecar's finished games, in order, less the games
//! seen before (a duplicate: the same records in an earlier game, e.g. a seed used
//! twice); records past the last finished game (the game a killed run was playing)
//! and a cut record at the end are reported and left out, as a resume would trim
//! them. A shard without a sidecar (made before sidecars, or by `cat`) is kept whole
//! but for a cut record; its games are unknown, so duplicates are only found as
//! repeated runs of records and reported, not removed.

use crate::data::{PackedPosition, RECORD_LEN};
use crate::shard::{
    fnv, io_err, read_sidecar, sidecar_path, write_atomic, Fnv, GameEntry, ShardError, MAGIC,
    MERGED,
};
use bytemuck::Zeroable;
use std::collections::HashMap;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Records in a run compared between shards without sidecars.
pub const RUN: usize = 8;
/// Runs start at records whose hash is 0 modulo this: content-defined starts, so a
/// repeated game is found at any offset while only about 1 run in `ANCHOR` is kept.
const ANCHOR: u64 = 16;

/// What one shard holds and what the merge takes from it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShardInfo {
    pub path: PathBuf,
    pub bytes: u64,
    /// Whole records in the file.
    pub records: u64,
    /// Bytes of a cut record at the end (left out).
    pub cut_bytes: u64,
    /// The sidecar's params, if it has one.
    pub params: Option<String>,
    /// Finished games (sidecar lines); `None` without a sidecar.
    pub games: Option<u64>,
    /// Whole records past the last finished game (an unfinished game; left out).
    pub unfinished_records: u64,
    /// Games and records left out as duplicates of earlier ones.
    pub duplicate_games: u64,
    pub duplicate_records: u64,
    /// Records the merge takes and their FNV-1a 64 checksum.
    pub kept_records: u64,
    pub fnv: u64,
}

/// A game (or, without sidecars, a run of `RUN` records) met twice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Duplicate {
    /// (shard number, seed, game index) or, for a run, (shard number, 0, record index).
    pub first: (usize, u64, u64),
    pub again: (usize, u64, u64),
    pub records: u64,
    /// A game (removed by the merge) or a run of records (only reported).
    pub game: bool,
}

#[derive(Clone, Debug, Default)]
pub struct Scan {
    pub shards: Vec<ShardInfo>,
    pub duplicates: Vec<Duplicate>,
    pub records: u64,
    /// Checksum of the merge: every kept record, in order.
    pub fnv: u64,
    /// Every input had a sidecar, so the merge has one too.
    pub all_sidecars: bool,
}

/// Scan shards in order, handing the bytes the merge keeps to `sink` (and the game
/// lines, when every shard has a sidecar). Garbage records and sidecars that disagree
/// with their shard are errors.
pub fn scan(
    paths: &[PathBuf],
    mut sink: impl FnMut(&[u8], Option<&GameEntry>) -> Result<(), ShardError>,
) -> Result<Scan, ShardError> {
    let mut out = Scan {
        all_sidecars: true,
        ..Scan::default()
    };
    let mut all = Fnv::default();
    let mut games: HashMap<(u64, u64), (usize, u64, u64)> = HashMap::new();
    let mut runs: HashMap<u64, (usize, u64)> = HashMap::new();
    for (n, path) in paths.iter().enumerate() {
        let bytes = std::fs::read(path).map_err(io_err(path))?;
        let whole = bytes.len() - bytes.len() % RECORD_LEN;
        check_records(path, &bytes[..whole])?;
        let sidecar = read_sidecar(path)?;
        let mut info = ShardInfo {
            path: path.clone(),
            bytes: bytes.len() as u64,
            records: (whole / RECORD_LEN) as u64,
            cut_bytes: (bytes.len() - whole) as u64,
            params: sidecar.as_ref().map(|s| s.params.clone()),
            games: sidecar.as_ref().map(|s| s.games.len() as u64),
            ..ShardInfo::default()
        };
        let mut h = Fnv::default();
        let mut keep = |b: &[u8], g: Option<&GameEntry>| {
            h.update(b);
            all.update(b);
            sink(b, g)
        };
        let Some(sidecar) = sidecar else {
            out.all_sidecars = false;
            find_runs(&bytes[..whole], n, &mut runs, &mut out.duplicates);
            keep(&bytes[..whole], None)?;
            info.kept_records = info.records;
            info.fnv = h.value();
            out.records += info.kept_records;
            out.shards.push(info);
            continue;
        };
        let mut at = 0usize;
        for (line, g) in sidecar.games.iter().enumerate() {
            let end = at + g.records as usize * RECORD_LEN;
            if end > whole {
                return Err(ShardError::Mismatch {
                    path: path.clone(),
                    reason: format!(
                        "its sidecar lists {} records, it holds {}",
                        sidecar.records(),
                        info.records
                    ),
                });
            }
            let b = &bytes[at..end];
            at = end;
            if fnv(b) != g.fnv {
                return Err(ShardError::Mismatch {
                    path: path.clone(),
                    reason: format!(
                        "game {} (sidecar line {}) does not match its checksum",
                        g.index,
                        line + 2
                    ),
                });
            }
            let here = (n, g.seed, g.index);
            if g.records > 0 {
                if let Some(&first) = games.get(&(g.fnv, g.records)) {
                    out.duplicates.push(Duplicate {
                        first,
                        again: here,
                        records: g.records,
                        game: true,
                    });
                    info.duplicate_games += 1;
                    info.duplicate_records += g.records;
                    continue;
                }
                games.insert((g.fnv, g.records), here);
            }
            keep(b, Some(g))?;
            info.kept_records += g.records;
        }
        info.unfinished_records = ((whole - at) / RECORD_LEN) as u64;
        info.fnv = h.value();
        out.records += info.kept_records;
        out.shards.push(info);
    }
    out.fnv = all.value();
    Ok(out)
}

fn check_records(path: &Path, bytes: &[u8]) -> Result<(), ShardError> {
    for (index, c) in bytes.chunks_exact(RECORD_LEN).enumerate() {
        let mut r = PackedPosition::zeroed();
        r.bytes.copy_from_slice(c);
        r.check().map_err(|reason| ShardError::Garbage {
            path: path.to_path_buf(),
            index: index as u64,
            reason,
        })?;
    }
    Ok(())
}

/// Repeated runs of `RUN` records (from content-defined starts) in shards without
/// sidecars, against every run seen so far.
fn find_runs(
    bytes: &[u8],
    shard: usize,
    seen: &mut HashMap<u64, (usize, u64)>,
    dups: &mut Vec<Duplicate>,
) {
    let recs: Vec<&[u8]> = bytes.chunks_exact(RECORD_LEN).collect();
    let mut i = 0;
    while i + RUN <= recs.len() {
        if !fnv(recs[i]).is_multiple_of(ANCHOR) {
            i += 1;
            continue;
        }
        let key = fnv(&bytes[i * RECORD_LEN..(i + RUN) * RECORD_LEN]);
        match seen.get(&key) {
            Some(&(s, at)) => {
                dups.push(Duplicate {
                    first: (s, 0, at),
                    again: (shard, 0, i as u64),
                    records: RUN as u64,
                    game: false,
                });
                // Report a repeated stretch once, not once per anchor in it.
                i += RUN;
            }
            None => {
                seen.insert(key, (shard, i as u64));
                i += 1;
            }
        }
    }
}

/// Merge `inputs` into `out` (written to a temporary file and renamed into place, with
/// a `merged` sidecar when every input has one).
pub fn merge(inputs: &[PathBuf], out: &Path) -> Result<Scan, ShardError> {
    let same = |a: &Path| match (a.canonicalize(), out.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    };
    if let Some(p) = inputs.iter().find(|p| same(p)) {
        return Err(ShardError::Io {
            path: p.clone(),
            message: "is both an input and the output".into(),
        });
    }
    let mut tmp = out.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let file = std::fs::File::create(&tmp).map_err(io_err(&tmp))?;
    let mut w = BufWriter::new(file);
    let mut lines = format!("{MAGIC} {MERGED}\n");
    let scanned = scan(inputs, |b, g| {
        if let Some(g) = g {
            lines += &g.line();
        }
        w.write_all(b).map_err(io_err(&tmp))
    });
    let scanned = match scanned {
        Ok(s) => s,
        Err(e) => {
            drop(w);
            let _ = std::fs::remove_file(&tmp);
            return Err(e);
        }
    };
    let file = w.into_inner().map_err(|e| io_err(&tmp)(e.into_error()))?;
    file.sync_all().map_err(io_err(&tmp))?;
    // A stale sidecar must not describe the new file, even for a moment.
    let side = sidecar_path(out);
    match std::fs::remove_file(&side) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io_err(&side)(e)),
        _ => {}
    }
    std::fs::rename(&tmp, out).map_err(io_err(out))?;
    if scanned.all_sidecars {
        write_atomic(&side, lines.as_bytes())?;
    }
    Ok(scanned)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shard::ShardWriter;

    fn temp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("qili-merge-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// A fake game of `n` valid records, distinct per (seed, game, ply).
    fn game(seed: u64, g: u64, n: usize) -> Vec<PackedPosition> {
        let pos = rules::Position::startpos();
        (0..n)
            .map(|k| {
                let score = (seed * 10_000 + g * 100 + k as u64) as i16;
                PackedPosition::pack(&pos, score, crate::data::Outcome::Win)
            })
            .collect()
    }

    fn shard(path: &Path, seed: u64, games: u64) -> Vec<u8> {
        let mut w = ShardWriter::create(path, &format!("seed={seed}")).unwrap();
        let mut all = Vec::new();
        for g in 0..games {
            let recs = game(seed, g, 2 + g as usize % 3);
            all.extend_from_slice(bytemuck::cast_slice(&recs));
            w.write_game(seed, g, &recs).unwrap();
        }
        all
    }

    #[test]
    fn merge_leaves_out_a_cut_record_an_unfinished_game_and_a_duplicate_seed() {
        let d = temp_dir("merge");
        let (a, b, c) = (d.join("a.bin"), d.join("b.bin"), d.join("c.bin"));
        let bytes_a = shard(&a, 1, 5);
        let bytes_b = shard(&b, 2, 4);
        // b was killed: two records of game 4 and 20 bytes of a third reached it.
        let mut f = std::fs::OpenOptions::new().append(true).open(&b).unwrap();
        f.write_all(&bytemuck::cast_slice(&game(2, 4, 3))[..2 * RECORD_LEN + 20])
            .unwrap();
        // c repeats seed 1 (a copy-paste in the job script).
        shard(&c, 1, 3);
        let out = d.join("all.bin");
        let s = merge(&[a.clone(), b.clone(), c.clone()], &out).unwrap();
        let expect = [bytes_a.clone(), bytes_b.clone()].concat();
        assert_eq!(std::fs::read(&out).unwrap(), expect);
        assert_eq!(s.fnv, fnv(&expect));
        assert_eq!(s.records, (expect.len() / RECORD_LEN) as u64);
        let sb = &s.shards[1];
        assert_eq!((sb.cut_bytes, sb.unfinished_records), (20, 2));
        assert_eq!(sb.fnv, fnv(&bytes_b));
        let sc = &s.shards[2];
        assert_eq!((sc.duplicate_games, sc.kept_records), (3, 0));
        assert_eq!(s.duplicates.len(), 3);
        assert_eq!(s.duplicates[1].first, (0, 1, 1));
        assert_eq!(s.duplicates[1].again, (2, 1, 1));
        // The merge's sidecar lists the games it kept, and a check of it agrees.
        let again = scan(std::slice::from_ref(&out), |_, _| Ok(())).unwrap();
        assert_eq!((again.fnv, again.shards[0].games), (s.fnv, Some(9)));
        assert!(again.duplicates.is_empty());
    }

    #[test]
    fn shards_without_sidecars_are_kept_whole_and_repeats_reported() {
        let d = temp_dir("plain");
        let (a, b) = (d.join("a.bin"), d.join("b.bin"));
        let mut bytes = Vec::new();
        for g in 0..40 {
            bytes.extend_from_slice(bytemuck::cast_slice(&game(3, g, 20)));
        }
        std::fs::write(&a, &bytes).unwrap();
        // b: other games, then a's games 10..20 (300 records), then a cut record.
        let mut other: Vec<u8> = Vec::new();
        for g in 0..5 {
            other.extend_from_slice(bytemuck::cast_slice(&game(4, g, 20)));
        }
        let stolen = &bytes[200 * RECORD_LEN..400 * RECORD_LEN];
        std::fs::write(&b, [&other[..], stolen, &[1u8; 7]].concat()).unwrap();
        let s = scan(&[a, b], |_, _| Ok(())).unwrap();
        assert!(!s.all_sidecars);
        assert_eq!(s.shards[1].cut_bytes, 7);
        assert_eq!(s.records, 800 + 100 + 200);
        assert!(!s.duplicates.is_empty(), "the repeated stretch is found");
        assert!(s.duplicates.iter().all(|d| !d.game && d.again.0 == 1));
        assert!(s
            .duplicates
            .iter()
            .all(|d| d.again.2 >= 100 && (200..400).contains(&d.first.2)));
    }

    #[test]
    fn garbage_and_a_lying_sidecar_are_clear_errors_and_write_nothing() {
        let d = temp_dir("garbage");
        let (a, g, out) = (d.join("a.bin"), d.join("g.bin"), d.join("all.bin"));
        shard(&a, 1, 3);
        let junk: Vec<u8> = (0..320u32).map(|i| (i * 37 % 251) as u8 | 0x80).collect();
        std::fs::write(&g, &junk).unwrap();
        let e = merge(&[a.clone(), g.clone()], &out).unwrap_err();
        assert!(matches!(e, ShardError::Garbage { index: 0, .. }), "{e}");
        assert!(e.to_string().contains("g.bin"), "{e}");
        assert!(!out.exists());
        let e = merge(std::slice::from_ref(&a), &a).unwrap_err();
        assert!(
            e.to_string().contains("both an input and the output"),
            "{e}"
        );
        // A shard cut short of what its sidecar lists.
        let len = std::fs::metadata(&a).unwrap().len();
        std::fs::OpenOptions::new()
            .write(true)
            .open(&a)
            .unwrap()
            .set_len(len - 64)
            .unwrap();
        let e = scan(&[a], |_, _| Ok(())).unwrap_err();
        assert!(matches!(e, ShardError::Mismatch { .. }), "{e}");
    }
}
