//! Reading input lines on a thread of their own, never holding more than a limit of one
//! line in memory: a longer line is skipped to its end and reported by its length, so a
//! peer that sends megabytes without a newline costs nothing but the time to read them.

use std::io::BufRead;

/// What the reader hands over.
#[derive(Debug, PartialEq, Eq)]
pub enum Input {
    /// One line, without its line ending (invalid UTF-8 replaced).
    Line(String),
    /// A line longer than the limit, skipped: its length in bytes.
    TooLong(usize),
    /// The input ended (or could no longer be read).
    End,
}

/// Reads `input` line by line, handing each to `send` (which returns false once nobody
/// listens), until the end of the input. Lines over `limit` bytes are skipped and reported
/// at their end.
pub fn read_bounded<R: BufRead>(input: R, limit: usize, send: impl FnMut(Input) -> bool) {
    read_lines(input, limit, false, send);
}

/// [`read_bounded`], but a line is reported [`Input::TooLong`] as soon as it passes `limit`
/// (with the bytes read so far), not at its end: for a peer whose over-long line is a fault
/// in itself, which may never end (`cat /dev/zero`). The rest of it is skipped unreported.
pub fn read_bounded_eager<R: BufRead>(input: R, limit: usize, send: impl FnMut(Input) -> bool) {
    read_lines(input, limit, true, send);
}

fn read_lines<R: BufRead>(
    mut input: R,
    limit: usize,
    eager: bool,
    mut send: impl FnMut(Input) -> bool,
) {
    loop {
        let item = match next_line(&mut input, limit, eager) {
            Ok(Some(Line::Whole(mut line))) => {
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                Input::Line(String::from_utf8_lossy(&line).into_owned())
            }
            Ok(Some(Line::TooLong { length, ended })) => {
                if !send(Input::TooLong(length)) {
                    return;
                }
                // Eager: the rest of the line, unreported (a limit of 0 keeps none of it).
                if !ended && !matches!(next_line(&mut input, 0, false), Ok(Some(_))) {
                    send(Input::End);
                    return;
                }
                continue;
            }
            Ok(None) | Err(_) => {
                send(Input::End);
                return;
            }
        };
        if !send(item) {
            return;
        }
    }
}

/// The next line of `input`, without its `\n` (a `\r` before it stays), as bytes:
/// `Ok(None)` at the end of the input, `Err(length)` for a line over `limit` bytes, which is
/// read to its end but not kept. A last line with no line end counts as a line.
pub fn read_line_bounded<R: BufRead + ?Sized>(
    input: &mut R,
    limit: usize,
) -> std::io::Result<Option<Result<Vec<u8>, usize>>> {
    Ok(next_line(input, limit, false)?.map(|line| match line {
        Line::Whole(bytes) => Ok(bytes),
        Line::TooLong { length, .. } => Err(length),
    }))
}

/// A line read by [`next_line`].
enum Line {
    /// Within the limit.
    Whole(Vec<u8>),
    /// Over it: its length (so far, when it has not `ended`).
    TooLong { length: usize, ended: bool },
}

/// The next line, or `None` at the end of the input; with `eager`, a line over `limit`
/// comes back as soon as it passes it, the rest of it unread.
fn next_line<R: BufRead + ?Sized>(
    input: &mut R,
    limit: usize,
    eager: bool,
) -> std::io::Result<Option<Line>> {
    let mut line: Vec<u8> = Vec::new();
    let mut skipped: Option<usize> = None;
    let mut any = false;
    loop {
        let (consumed, ended) = match input.fill_buf() {
            Ok([]) => break,
            Ok(buffer) => {
                let (chunk, ended) = match buffer.iter().position(|&b| b == b'\n') {
                    Some(at) => (&buffer[..at], true),
                    None => (buffer, false),
                };
                match &mut skipped {
                    Some(length) => *length += chunk.len(),
                    None if line.len() + chunk.len() > limit => {
                        skipped = Some(line.len() + chunk.len());
                        line = Vec::new();
                    }
                    None => line.extend_from_slice(chunk),
                }
                (chunk.len() + usize::from(ended), ended)
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        input.consume(consumed);
        any = true;
        if let Some(length) = skipped
            && (ended || eager)
        {
            return Ok(Some(Line::TooLong { length, ended }));
        }
        if ended {
            break;
        }
    }
    Ok(match skipped {
        Some(length) => Some(Line::TooLong {
            length,
            ended: true,
        }),
        None if any => Some(Line::Whole(line)),
        None => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &[u8], limit: usize) -> Vec<Input> {
        read_as(text, limit, false)
    }

    fn read_as(text: &[u8], limit: usize, eager: bool) -> Vec<Input> {
        let mut out = Vec::new();
        // A tiny buffer, so that lines arrive in many pieces.
        let reader = std::io::BufReader::with_capacity(3, text);
        read_lines(reader, limit, eager, |input| {
            out.push(input);
            true
        });
        out
    }

    #[test]
    fn eager_reports_a_long_line_once_as_it_passes_the_limit() {
        let got = read_as(b"ab\n0123456789\nxyz\n", 5, true);
        assert_eq!(
            got,
            [
                Input::Line("ab".into()),
                Input::TooLong(6),
                Input::Line("xyz".into()),
                Input::End,
            ]
        );
        assert_eq!(read_as(b"123456", 5, true), [Input::TooLong(6), Input::End]);
        // A line that never ends is reported all the same, and nobody listening stops it.
        let endless = std::io::BufReader::new(std::io::repeat(0));
        let mut got = Vec::new();
        read_bounded_eager(endless, 1000, |input| {
            got.push(input);
            false
        });
        assert!(
            matches!(got[..], [Input::TooLong(n)] if n > 1000),
            "{got:?}"
        );
    }

    #[test]
    fn lines_long_lines_and_the_end() {
        let got = read(b"ab\r\n0123456789\n\nxyz", 5);
        assert_eq!(
            got,
            [
                Input::Line("ab".into()),
                Input::TooLong(10),
                Input::Line(String::new()),
                Input::Line("xyz".into()),
                Input::End,
            ]
        );
        assert_eq!(read(b"", 5), [Input::End]);
        assert_eq!(read(b"123456", 5), [Input::TooLong(6), Input::End]);
        assert_eq!(
            read(b"12345\n", 5),
            [Input::Line("12345".into()), Input::End]
        );
    }
}
