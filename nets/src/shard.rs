//! Shards that survive being killed: `qili datagen` writes a shard's records and,
//! beside it, a sidecar (`<shard>.games`) with one line per finished game, so that the
//! game boundaries the 32-byte record format does not hold are known, a killed run
//! can be continued to the same bytes (`--resume`), and `qili data check|merge` can
//! find cut records, unfinished games and duplicated games.
//!
//! ```text
//! qili-shard 1 <params>                 header: what the games are made from
//! <seed> <game index> <records> <fnv>   one line per finished game, in order; fnv is
//!                                       FNV-1a 64 (hex) of the game's record bytes
//! ```
//!
//! Order of writes: a game's records go to the shard first, then its sidecar line,
//! both appended. A run killed at any point leaves a shard whose tail may hold a cut
//! record or records of a game without a line, and a sidecar whose last line may be
//! cut; the sidecar's whole lines are the truth and everything past them is the
//! unfinished game, which a resume trims and plays again.
//!
//! A writer holds an advisory lock on its shard (`flock`; released by the kernel
//! when the process ends, however it ends), so a second writer on the same shard —
//! a resume started while the first run is only stopped, or a fresh run on a file
//! in use — is refused before it reads or changes a byte.

use crate::data::RECORD_LEN;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

pub const MAGIC: &str = "qili-shard 1";

/// The header's params of a merged file (games of several seeds; not resumable).
pub const MERGED: &str = "merged";

/// FNV-1a 64, streamed and whole: the workspace's checksum (`rules::checksum`), the
/// same as the net file's `format::checksum`.
pub use rules::checksum::{fnv1a64 as fnv, Fnv1a64 as Fnv};

#[derive(Debug)]
pub enum ShardError {
    Io {
        path: PathBuf,
        message: String,
    },
    /// The sidecar is not one (bad header, a malformed whole line).
    Sidecar {
        path: PathBuf,
        line: usize,
        reason: String,
    },
    /// A resume with other params than the shard was started with.
    Params {
        path: PathBuf,
        found: String,
        expected: String,
    },
    /// The shard's bytes disagree with its sidecar (records missing or changed).
    Mismatch {
        path: PathBuf,
        reason: String,
    },
    /// A record that is not one (`PackedPosition::check`).
    Garbage {
        path: PathBuf,
        index: u64,
        reason: &'static str,
    },
    /// A shard with records but no sidecar cannot be resumed: its games are unknown.
    NoSidecar {
        path: PathBuf,
    },
    /// Another process writes this shard (it holds the shard's lock).
    Locked {
        path: PathBuf,
    },
}

impl fmt::Display for ShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShardError::Io { path, message } => write!(f, "{}: {message}", path.display()),
            ShardError::Sidecar { path, line, reason } => {
                write!(f, "{} line {line}: {reason}", path.display())
            }
            ShardError::Params {
                path,
                found,
                expected,
            } => write!(
                f,
                "{}: made with `{found}`, this run is `{expected}`; resuming would mix games",
                path.display()
            ),
            ShardError::Mismatch { path, reason } => write!(f, "{}: {reason}", path.display()),
            ShardError::Garbage {
                path,
                index,
                reason,
            } => write!(
                f,
                "{}: record {index} (byte {}): {reason}; not qili training data?",
                path.display(),
                index * RECORD_LEN as u64
            ),
            ShardError::NoSidecar { path } => write!(
                f,
                "{} holds records but has no sidecar {}: its games are unknown, so it \
                 cannot be resumed (continue it into a new file with --first-game)",
                path.display(),
                sidecar_path(path).display()
            ),
            ShardError::Locked { path } => write!(
                f,
                "{}: another process is writing this shard (a running or stopped `qili \
                 datagen`); two writers would interleave their games, so nothing was \
                 changed: let it finish or end it first",
                path.display()
            ),
        }
    }
}

impl std::error::Error for ShardError {}

pub(crate) fn io_err(path: &Path) -> impl Fn(std::io::Error) -> ShardError + '_ {
    move |e| ShardError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// `shard.bin` → `shard.bin.games`.
pub fn sidecar_path(shard: &Path) -> PathBuf {
    let mut s = shard.as_os_str().to_owned();
    s.push(".games");
    PathBuf::from(s)
}

/// One finished game as its sidecar line records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameEntry {
    pub seed: u64,
    pub index: u64,
    pub records: u64,
    pub fnv: u64,
}

impl GameEntry {
    pub fn line(&self) -> String {
        format!(
            "{} {} {} {:016x}\n",
            self.seed, self.index, self.records, self.fnv
        )
    }
}

/// A parsed sidecar: its params, its whole game lines and how many bytes of a cut
/// last line (a write the kill interrupted) follow them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sidecar {
    pub params: String,
    pub games: Vec<GameEntry>,
    pub cut_bytes: usize,
}

impl Sidecar {
    pub fn records(&self) -> u64 {
        self.games.iter().map(|g| g.records).sum()
    }
}

pub fn parse_sidecar(path: &Path, text: &[u8]) -> Result<Sidecar, ShardError> {
    let bad = |line: usize, reason: String| ShardError::Sidecar {
        path: path.to_path_buf(),
        line,
        reason,
    };
    let whole = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let text_whole =
        std::str::from_utf8(&text[..whole]).map_err(|_| bad(0, "not UTF-8 text".into()))?;
    let mut lines = text_whole.lines();
    let header = lines.next().unwrap_or("");
    let Some(params) = header.strip_prefix(MAGIC).and_then(|r| r.strip_prefix(' ')) else {
        return Err(bad(1, format!("expected a `{MAGIC} <params>` header")));
    };
    let mut games = Vec::new();
    for (n, l) in lines.enumerate() {
        let f: Vec<&str> = l.split(' ').collect();
        let num = |s: &str| s.parse::<u64>().ok();
        match (f.as_slice(), f.len()) {
            ([s, i, r, h], 4) => match (num(s), num(i), num(r), u64::from_str_radix(h, 16)) {
                (Some(seed), Some(index), Some(records), Ok(fnv)) => games.push(GameEntry {
                    seed,
                    index,
                    records,
                    fnv,
                }),
                _ => return Err(bad(n + 2, format!("malformed game line `{l}`"))),
            },
            _ => return Err(bad(n + 2, format!("malformed game line `{l}`"))),
        }
    }
    Ok(Sidecar {
        params: params.to_string(),
        games,
        cut_bytes: text.len() - whole,
    })
}

pub fn read_sidecar(shard: &Path) -> Result<Option<Sidecar>, ShardError> {
    let path = sidecar_path(shard);
    match std::fs::read(&path) {
        Ok(text) => parse_sidecar(&path, &text).map(Some),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io_err(&path)(e)),
    }
}

/// Write `bytes` to `path` by a temporary file renamed over it: a reader (or a kill)
/// sees the old file or the new one, never half of it.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), ShardError> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let mut f = File::create(&tmp).map_err(io_err(&tmp))?;
    f.write_all(bytes).map_err(io_err(&tmp))?;
    f.sync_all().map_err(io_err(&tmp))?;
    std::fs::rename(&tmp, path).map_err(io_err(path))
}

/// What a resume found and kept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resumed {
    /// Finished games kept (the next game is `first game + games`).
    pub games: u64,
    pub records: u64,
    /// Bytes cut from the shard's end: records of the unfinished game and a cut record.
    pub trimmed_bytes: u64,
    /// Bytes of a cut last sidecar line dropped.
    pub trimmed_sidecar_bytes: u64,
}

/// Appends whole games to a shard and its sidecar.
pub struct ShardWriter {
    path: PathBuf,
    data: File,
    sidecar: File,
    games: u64,
}

impl ShardWriter {
    /// A new shard (an existing one and its sidecar are truncated, unless another
    /// process writes it).
    pub fn create(path: &Path, params: &str) -> Result<ShardWriter, ShardError> {
        Self::start(path, open_locked(path)?, params)
    }

    /// Truncate the locked shard `data` and give it a sidecar with only its header.
    fn start(path: &Path, data: File, params: &str) -> Result<ShardWriter, ShardError> {
        data.set_len(0).map_err(io_err(path))?;
        let side = sidecar_path(path);
        write_atomic(&side, format!("{MAGIC} {params}\n").as_bytes())?;
        Self::open(path, data, 0)
    }

    fn open(path: &Path, data: File, games: u64) -> Result<ShardWriter, ShardError> {
        let side = sidecar_path(path);
        let sidecar = OpenOptions::new()
            .append(true)
            .open(&side)
            .map_err(io_err(&side))?;
        Ok(ShardWriter {
            path: path.to_path_buf(),
            data,
            sidecar,
            games,
        })
    }

    /// Continue the shard at `path` made with `params`: keep its finished games (each
    /// checked against its sidecar checksum), cut the rest; a missing shard is created.
    pub fn resume(path: &Path, params: &str) -> Result<(ShardWriter, Resumed), ShardError> {
        let mut data = open_locked(path)?;
        let sidecar = read_sidecar(path)?;
        let len = data.metadata().map_err(io_err(path))?.len();
        let Some(sidecar) = sidecar else {
            if len > 0 {
                return Err(ShardError::NoSidecar {
                    path: path.to_path_buf(),
                });
            }
            return Ok((Self::start(path, data, params)?, Resumed::default()));
        };
        if sidecar.params != params {
            return Err(ShardError::Params {
                path: path.to_path_buf(),
                found: sidecar.params,
                expected: params.to_string(),
            });
        }
        let records = sidecar.records();
        if records * RECORD_LEN as u64 > len {
            // Lines are written after their records, so this is not a killed run.
            return Err(ShardError::Mismatch {
                path: path.to_path_buf(),
                reason: format!(
                    "the sidecar lists {records} records in {} games, the shard holds {}",
                    sidecar.games.len(),
                    len / RECORD_LEN as u64
                ),
            });
        }
        verify_games(path, &mut data, &sidecar.games)?;
        let keep = records * RECORD_LEN as u64;
        data.set_len(keep).map_err(io_err(path))?;
        data.sync_all().map_err(io_err(path))?;
        if sidecar.cut_bytes > 0 {
            let mut text = format!("{MAGIC} {params}\n");
            sidecar.games.iter().for_each(|g| text += &g.line());
            write_atomic(&sidecar_path(path), text.as_bytes())?;
        }
        // The locked handle writes on: the shard's only writer appends at its end.
        data.seek(SeekFrom::End(0)).map_err(io_err(path))?;
        let games = sidecar.games.len() as u64;
        let resumed = Resumed {
            games,
            records,
            trimmed_bytes: len - keep,
            trimmed_sidecar_bytes: sidecar.cut_bytes as u64,
        };
        Ok((Self::open(path, data, games)?, resumed))
    }

    /// Finished games in the shard.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Append one finished game: its records, then (once they are written) its line.
    pub fn write_game(
        &mut self,
        seed: u64,
        index: u64,
        recs: &[crate::data::PackedPosition],
    ) -> Result<(), ShardError> {
        let bytes: &[u8] = bytemuck::cast_slice(recs);
        self.data.write_all(bytes).map_err(io_err(&self.path))?;
        let entry = GameEntry {
            seed,
            index,
            records: recs.len() as u64,
            fnv: fnv(bytes),
        };
        let side = sidecar_path(&self.path);
        // One write of the whole line: a kill leaves it whole or cut, never interleaved.
        self.sidecar
            .write_all(entry.line().as_bytes())
            .map_err(io_err(&side))?;
        self.games += 1;
        Ok(())
    }
}

/// The shard at `path` opened to read and write (created empty when missing, never
/// truncated here) with its lock taken, or `Locked` when another process holds it.
fn open_locked(path: &Path) -> Result<File, ShardError> {
    let data = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(io_err(path))?;
    match data.try_lock() {
        Ok(()) => Ok(data),
        Err(std::fs::TryLockError::WouldBlock) => Err(ShardError::Locked {
            path: path.to_path_buf(),
        }),
        Err(std::fs::TryLockError::Error(e)) => Err(io_err(path)(e)),
    }
}

/// Check each listed game's bytes against its checksum, reading `data` from its start.
fn verify_games(path: &Path, data: &mut File, games: &[GameEntry]) -> Result<(), ShardError> {
    let mut buf = Vec::new();
    for (n, g) in games.iter().enumerate() {
        if g.index != games[0].index + n as u64 || g.seed != games[0].seed {
            return Err(ShardError::Mismatch {
                path: sidecar_path(path),
                reason: format!(
                    "line {}: game {} of seed {} out of order",
                    n + 2,
                    g.index,
                    g.seed
                ),
            });
        }
        buf.resize(g.records as usize * RECORD_LEN, 0);
        data.read_exact(&mut buf).map_err(io_err(path))?;
        if fnv(&buf) != g.fnv {
            return Err(ShardError::Mismatch {
                path: path.to_path_buf(),
                reason: format!(
                    "game {} (line {}) does not match its sidecar checksum",
                    g.index,
                    n + 2
                ),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::PackedPosition;

    pub(crate) fn temp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("qili-shard-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// A fake game: `n` valid records whose score bytes carry (game, ply).
    pub(crate) fn game(g: u64, n: usize) -> Vec<PackedPosition> {
        let pos = rules::Position::startpos();
        (0..n)
            .map(|k| {
                let score = (g * 100 + k as u64) as i16;
                PackedPosition::pack(&pos, score, crate::data::Outcome::Draw)
            })
            .collect()
    }

    fn write(path: &Path, params: &str, games: std::ops::Range<u64>) -> ShardWriter {
        let (mut w, _) = ShardWriter::resume(path, params).unwrap();
        for g in games {
            w.write_game(7, g, &game(g, 3 + g as usize % 4)).unwrap();
        }
        w
    }

    #[test]
    fn fnv_is_the_net_file_checksum() {
        let b = b"qili shard bytes";
        assert_eq!(fnv(b), crate::format::checksum(b));
    }

    #[test]
    fn resume_after_a_kill_gives_the_bytes_of_an_uninterrupted_run() {
        let d = temp_dir("resume");
        let (whole, part) = (d.join("whole.bin"), d.join("part.bin"));
        drop(write(&whole, "seed=7", 0..6));
        drop(write(&part, "seed=7", 0..3));
        // The kill: half of game 3's records (and a cut record) reached the shard, and
        // a cut line the sidecar.
        let mut f = OpenOptions::new().append(true).open(&part).unwrap();
        f.write_all(&bytemuck::cast_slice(&game(3, 6))[..100])
            .unwrap();
        let mut s = OpenOptions::new()
            .append(true)
            .open(sidecar_path(&part))
            .unwrap();
        s.write_all(b"7 3 6 12ab").unwrap();
        let (mut w, r) = ShardWriter::resume(&part, "seed=7").unwrap();
        assert_eq!(
            (r.games, r.trimmed_bytes, r.trimmed_sidecar_bytes),
            (3, 100, 10)
        );
        for g in w.games()..6 {
            w.write_game(7, g, &game(g, 3 + g as usize % 4)).unwrap();
        }
        drop(w);
        assert_eq!(
            std::fs::read(&whole).unwrap(),
            std::fs::read(&part).unwrap()
        );
        assert_eq!(
            std::fs::read(sidecar_path(&whole)).unwrap(),
            std::fs::read(sidecar_path(&part)).unwrap()
        );
        // A finished shard resumes to itself.
        let (w, r) = ShardWriter::resume(&part, "seed=7").unwrap();
        assert_eq!((w.games(), r.trimmed_bytes), (6, 0));
    }

    #[test]
    fn resume_refuses_other_params_changed_records_and_a_lost_sidecar() {
        let d = temp_dir("refuse");
        let p = d.join("s.bin");
        drop(write(&p, "seed=7 nodes=100", 0..3));
        let e = ShardWriter::resume(&p, "seed=7 nodes=200").err().unwrap();
        assert!(matches!(e, ShardError::Params { .. }), "{e}");
        let mut bytes = std::fs::read(&p).unwrap();
        bytes[28] ^= 1;
        std::fs::write(&p, &bytes).unwrap();
        let e = ShardWriter::resume(&p, "seed=7 nodes=100").err().unwrap();
        assert!(e.to_string().contains("does not match"), "{e}");
        std::fs::remove_file(sidecar_path(&p)).unwrap();
        let e = ShardWriter::resume(&p, "seed=7 nodes=100").err().unwrap();
        assert!(matches!(e, ShardError::NoSidecar { .. }), "{e}");
        std::fs::write(sidecar_path(&p), "garbage\n").unwrap();
        let e = ShardWriter::resume(&p, "seed=7 nodes=100").err().unwrap();
        assert!(e.to_string().contains("header"), "{e}");
    }

    #[test]
    fn a_second_writer_is_refused_and_changes_nothing() {
        let d = temp_dir("lock");
        let p = d.join("s.bin");
        let mut first = write(&p, "seed=7", 0..3);
        let bytes = (
            std::fs::read(&p).unwrap(),
            std::fs::read(sidecar_path(&p)).unwrap(),
        );
        let e = ShardWriter::resume(&p, "seed=7").err().unwrap();
        assert!(matches!(e, ShardError::Locked { .. }), "{e}");
        let e = ShardWriter::create(&p, "seed=7").err().unwrap();
        assert!(matches!(e, ShardError::Locked { .. }), "{e}");
        let now = (
            std::fs::read(&p).unwrap(),
            std::fs::read(sidecar_path(&p)).unwrap(),
        );
        assert_eq!(bytes, now);
        // The first writer goes on undisturbed; once it is gone the shard resumes.
        first.write_game(7, 3, &game(3, 5)).unwrap();
        drop(first);
        let (w, r) = ShardWriter::resume(&p, "seed=7").unwrap();
        assert_eq!((w.games(), r.trimmed_bytes), (4, 0));
        drop(w);
        let w = ShardWriter::create(&p, "seed=7").unwrap();
        assert_eq!(w.games(), 0);
        assert_eq!(std::fs::metadata(&p).unwrap().len(), 0);
    }
}
