//! The stdin reader thread: turns bytes into lines and hands them to the session
//! over a channel, so that `stop`, `ponderhit`, `isready` and `quit` are seen
//! while a search runs. Lines longer than `MAX_LINE` are skipped to their end
//! without being stored (memory stays bounded whatever the GUI sends).

use super::command::MAX_LINE;
use super::Event;
use std::io::BufRead;
use std::sync::mpsc::Sender;

/// One line from the input, or what stood in its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Line(String),
    /// A line of this many bytes, not kept.
    TooLong(usize),
    Eof,
}

/// Read the next line. `buf` is reused between calls.
pub fn next_line(r: &mut impl BufRead, buf: &mut Vec<u8>) -> Input {
    buf.clear();
    let mut total = 0usize;
    loop {
        let chunk = match r.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return end(buf, total),
        };
        if chunk.is_empty() {
            return end(buf, total);
        }
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        total = total.saturating_add(part.len());
        if total <= MAX_LINE {
            buf.extend_from_slice(part);
        }
        let used = done.unwrap_or(chunk.len());
        r.consume(used);
        if done.is_some() {
            return finish(buf, total);
        }
    }
}

fn end(buf: &[u8], total: usize) -> Input {
    if total == 0 {
        Input::Eof
    } else {
        finish(buf, total)
    }
}

fn finish(buf: &[u8], total: usize) -> Input {
    if total > MAX_LINE {
        Input::TooLong(total)
    } else {
        Input::Line(String::from_utf8_lossy(buf).into_owned())
    }
}

/// Spawn the thread that reads `input` until EOF.
pub fn spawn<S: Send + 'static>(input: impl BufRead + Send + 'static, tx: Sender<Event<S>>) {
    let spawned = std::thread::Builder::new()
        .name("qili-stdin".into())
        .spawn(move || {
            let mut input = input;
            let mut buf = Vec::new();
            loop {
                let item = next_line(&mut input, &mut buf);
                let eof = item == Input::Eof;
                if tx.send(Event::Input(item)).is_err() || eof {
                    break;
                }
            }
        });
    if spawned.is_err() {
        // No thread, no input: let the session end cleanly.
        eprintln!("qili: cannot start the input thread");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    #[test]
    fn lines_crlf_eof_and_long_lines() {
        let mut text = b"ucci\r\nisready\n".to_vec();
        text.extend(std::iter::repeat_n(b'x', MAX_LINE + 10));
        text.extend(b"\n\xff\xfego\nlast");
        let mut r = std::io::BufReader::with_capacity(1000, Cursor::new(text));
        let mut buf = Vec::new();
        assert_eq!(next_line(&mut r, &mut buf), Input::Line("ucci\r".into()));
        assert_eq!(next_line(&mut r, &mut buf), Input::Line("isready".into()));
        assert_eq!(next_line(&mut r, &mut buf), Input::TooLong(MAX_LINE + 10));
        assert_eq!(
            next_line(&mut r, &mut buf),
            Input::Line("\u{fffd}\u{fffd}go".into())
        );
        assert_eq!(next_line(&mut r, &mut buf), Input::Line("last".into()));
        assert_eq!(next_line(&mut r, &mut buf), Input::Eof);
        // The buffer never held the long line.
        assert!(buf.capacity() <= 2 * MAX_LINE);
    }
}
