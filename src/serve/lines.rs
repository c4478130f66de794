//! Reading input lines on a thread of their own, never holding more than a limit of one
//! line in memory: a longer line is skipped to its end and reported by its length, so a
//! peer that sends megabytes without a newline costs nothing but the time to read them.

use std::collections::VecDeque;
use std::io::BufRead;
use std::sync::{Arc, Condvar, Mutex, PoisonError};

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
                if !ended && !matches!(next_line_within(&mut input, 0, false), Ok(Some(_))) {
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
/// comes back as soon as it passes it, the rest of it unread. A `\r` ending the line does
/// not count toward the limit, so a line fits with either line ending.
fn next_line<R: BufRead + ?Sized>(
    input: &mut R,
    limit: usize,
    eager: bool,
) -> std::io::Result<Option<Line>> {
    let line = next_line_within(input, limit.saturating_add(1), eager)?;
    Ok(match line {
        Some(Line::Whole(bytes)) if bytes.len() > limit && bytes.last() != Some(&b'\r') => {
            Some(Line::TooLong {
                length: bytes.len(),
                ended: true,
            })
        }
        line => line,
    })
}

/// [`next_line`] with `limit` counting every byte.
fn next_line_within<R: BufRead + ?Sized>(
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

/// The most input a front end holds unhandled: lines read but not yet answered (in its
/// channel, or waiting for a search), counted by [`Input::cost`]. Once it is reached the
/// reader stops reading until the backlog shrinks, so a peer that floods lines while the
/// engine thinks (`yes ABOUT`) waits on its pipe instead of growing the program's memory
/// (50 million lines queued behind a 5 s search took 11 GB before). Far above anything a
/// manager or a script sends ahead: a 20x20 `BOARD` block is about 5 KB.
pub const BACKLOG_LIMIT: usize = 4 << 20;

/// What an unhandled line costs against [`BACKLOG_LIMIT`]: its bytes and a little for its
/// bookkeeping, so that many empty lines are bounded too.
const LINE_OVERHEAD: usize = 64;

/// What a waiting line of `bytes` costs against [`BACKLOG_LIMIT`] (a skipped line: 0).
fn line_cost(bytes: usize) -> usize {
    bytes + LINE_OVERHEAD
}

impl Input {
    /// The memory this input holds while it waits, roughly, in bytes.
    pub fn cost(&self) -> usize {
        match self {
            Input::Line(line) => line_cost(line.len()),
            Input::TooLong(_) => line_cost(0),
            Input::End => 0,
        }
    }
}

/// The input a front end has read and not yet handled, shared by its reader thread (which
/// waits while it is over the limit) and its loop (which never waits on it).
#[derive(Debug)]
pub struct Backlog {
    state: Mutex<BacklogState>,
    room: Condvar,
    limit: usize,
}

#[derive(Debug, Default)]
struct BacklogState {
    cost: usize,
    /// The loop is gone: nobody will make room, so the reader must not wait.
    closed: bool,
}

impl Backlog {
    pub fn new(limit: usize) -> Arc<Self> {
        Arc::new(Self {
            state: Mutex::new(BacklogState::default()),
            room: Condvar::new(),
            limit,
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BacklogState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The reader: counts `cost` in, first waiting while the backlog is over the limit (one
    /// item always fits). False once the loop is gone.
    pub fn admit(&self, cost: usize) -> bool {
        let mut state = self.lock();
        while !state.closed && state.cost > 0 && state.cost + cost > self.limit {
            state = self
                .room
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
        state.cost += cost;
        !state.closed
    }

    /// The loop: counts `cost` in without waiting (an item moved into a queue of its own).
    pub fn charge(&self, cost: usize) {
        self.lock().cost += cost;
    }

    /// The loop: `cost` was handled (or dropped).
    pub fn release(&self, cost: usize) {
        let mut state = self.lock();
        state.cost = state.cost.saturating_sub(cost);
        self.room.notify_all();
    }

    /// The loop is gone: a waiting reader goes on (and finds nobody listening).
    pub fn close(&self) {
        self.lock().closed = true;
        self.room.notify_all();
    }

    /// The cost counted now.
    pub fn cost(&self) -> usize {
        self.lock().cost
    }
}

/// Closes a [`Backlog`] when the loop that drains it ends, on every path.
pub struct CloseOnDrop(pub Arc<Backlog>);

impl Drop for CloseOnDrop {
    fn drop(&mut self) {
        self.0.close();
    }
}

/// Lines waiting for a search, counted in the [`Backlog`] they came from.
#[derive(Debug)]
pub struct Waiting<T> {
    items: VecDeque<T>,
    backlog: Arc<Backlog>,
    cost: fn(&T) -> usize,
}

impl<T> Waiting<T> {
    pub fn new(backlog: Arc<Backlog>, cost: fn(&T) -> usize) -> Self {
        Self {
            items: VecDeque::new(),
            backlog,
            cost,
        }
    }

    pub fn push_back(&mut self, item: T) {
        self.backlog.charge((self.cost)(&item));
        self.items.push_back(item);
    }

    pub fn push_front(&mut self, item: T) {
        self.backlog.charge((self.cost)(&item));
        self.items.push_front(item);
    }

    pub fn pop_front(&mut self) -> Option<T> {
        let item = self.items.pop_front()?;
        self.backlog.release((self.cost)(&item));
        Some(item)
    }

    pub fn clear(&mut self) {
        while self.pop_front().is_some() {}
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
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
                // Read three bytes at a time: reported once past the limit and a byte
                // for a `\r`.
                Input::TooLong(9),
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
        // The `\r` of a CRLF line does not count; a sixth byte of any other kind does.
        assert_eq!(
            read(b"12345\r\n123456\r\n12345\r", 5),
            [
                Input::Line("12345".into()),
                Input::TooLong(7),
                Input::Line("12345".into()),
                Input::End
            ]
        );
        assert_eq!(read(b"12345x\n", 5), [Input::TooLong(6), Input::End]);
    }

    #[test]
    fn the_backlog_holds_the_reader_until_the_loop_makes_room() {
        let backlog = Backlog::new(100);
        let line = || Input::Line("123456".into());
        let reader = {
            let backlog = Arc::clone(&backlog);
            // Each line costs 70: the first always fits, the second waits for room.
            std::thread::spawn(move || backlog.admit(line().cost()) && backlog.admit(line().cost()))
        };
        let pause = || std::thread::sleep(std::time::Duration::from_millis(50));
        while backlog.cost() < 70 {
            std::thread::yield_now();
        }
        pause();
        assert!(!reader.is_finished(), "the reader must wait for room");
        // The loop receives the first line and queues it: still 70 counted, still no room.
        let mut waiting = Waiting::new(Arc::clone(&backlog), Input::cost);
        waiting.push_back(line());
        backlog.release(70);
        assert_eq!(backlog.cost(), 70);
        pause();
        assert!(!reader.is_finished(), "a queued line holds its room");
        // Handled: the second line comes in.
        assert_eq!(waiting.pop_front(), Some(line()));
        assert_eq!(reader.join().ok(), Some(true));
        assert_eq!(backlog.cost(), 70);
        // Once the loop is gone the reader never waits, and is told nobody listens.
        backlog.close();
        assert!(!backlog.admit(1_000));
    }
}
