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
/// listens), until the end of the input. Lines over `limit` bytes are skipped.
pub fn read_bounded<R: BufRead>(mut input: R, limit: usize, mut send: impl FnMut(Input) -> bool) {
    loop {
        let input = match read_line_bounded(&mut input, limit) {
            Ok(Some(Ok(mut line))) => {
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                Input::Line(String::from_utf8_lossy(&line).into_owned())
            }
            Ok(Some(Err(length))) => Input::TooLong(length),
            Ok(None) | Err(_) => {
                send(Input::End);
                return;
            }
        };
        if !send(input) {
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
        if ended {
            break;
        }
    }
    Ok(match skipped {
        Some(length) => Some(Err(length)),
        None if any => Some(Ok(line)),
        None => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &[u8], limit: usize) -> Vec<Input> {
        let mut out = Vec::new();
        // A tiny buffer, so that lines arrive in many pieces.
        let reader = std::io::BufReader::with_capacity(3, text);
        read_bounded(reader, limit, |input| {
            out.push(input);
            true
        });
        out
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
