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
    let mut line: Vec<u8> = Vec::new();
    let mut skipped: Option<usize> = None;
    loop {
        let (consumed, ended_line) = match input.fill_buf() {
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
            Err(_) => break,
        };
        input.consume(consumed);
        if ended_line && !hand_over(&mut line, &mut skipped, &mut send) {
            return;
        }
    }
    if (!line.is_empty() || skipped.is_some()) && !hand_over(&mut line, &mut skipped, &mut send) {
        return;
    }
    send(Input::End);
}

fn hand_over(
    line: &mut Vec<u8>,
    skipped: &mut Option<usize>,
    send: &mut impl FnMut(Input) -> bool,
) -> bool {
    let input = if let Some(length) = skipped.take() {
        Input::TooLong(length)
    } else {
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        Input::Line(String::from_utf8_lossy(line).into_owned())
    };
    line.clear();
    send(input)
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
