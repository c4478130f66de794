//! Turns the bytes a terminal sends into key, mouse, paste and focus events: a pure decoder
//! over bytes and time, so that an unfinished escape sequence can never hold back what comes
//! after it.
//!
//! crossterm's own reader waits for the rest of a sequence for as long as it takes: after
//! `ESC [ 2 0 0 ~ a b c` (a paste start without its end), `ESC [ ?`, `ESC [ <` or `ESC [ M`
//! every later key stayed behind it. Here a partial sequence lasts at most
//! [`PARTIAL_TIMEOUT`] without new bytes: then a lone `ESC` is the Escape key, `ESC [` and
//! `ESC O` are Alt with that key, an open paste is delivered as it stands, and any other
//! fragment is dropped. Sequences and pastes are bounded in length, so memory is too.

use std::time::{Duration, Instant};

use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

/// How long a partial sequence waits for its next byte before it is settled.
pub const PARTIAL_TIMEOUT: Duration = Duration::from_millis(50);

/// The longest control sequence kept; a longer one is malformed and dropped.
const MAX_SEQUENCE: usize = 64;

/// The most a paste collects before it is delivered (and the rest arrives as a new paste).
const MAX_PASTE: usize = 1 << 20;

const ESC: u8 = 0x1b;
const PASTE_END: &[u8] = b"\x1b[201~";

/// Decodes a terminal's byte stream. Feed it bytes as they come with [`Decoder::feed`] and
/// call [`Decoder::expire`] when [`Decoder::deadline`] has passed.
#[derive(Debug, Default)]
pub struct Decoder {
    /// Bytes not yet decoded: the start of a sequence or character.
    pending: Vec<u8>,
    /// The text of a bracketed paste whose end marker has not come yet.
    paste: Option<Vec<u8>>,
    /// When the last bytes arrived.
    last: Option<Instant>,
    /// Inside an overlong control sequence: its remaining parameter bytes and its final
    /// byte are dropped.
    skipping: bool,
}

/// One step of decoding the front of the pending bytes.
enum Step {
    /// The first `n` bytes made this event (or nothing worth reporting).
    Done(usize, Option<Event>),
    /// The first `n` bytes opened a bracketed paste.
    PasteStart(usize),
    /// The bytes so far begin a sequence that is not complete.
    Incomplete,
    /// The first `n` bytes began a control sequence too long to be real: drop the rest of it.
    Overlong(usize),
}

impl Decoder {
    /// A decoder with nothing pending.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether nothing is waiting for more bytes.
    pub fn is_idle(&self) -> bool {
        self.pending.is_empty() && self.paste.is_none() && !self.skipping
    }

    /// When the partial sequence, if any, times out.
    pub fn deadline(&self) -> Option<Instant> {
        if self.is_idle() {
            return None;
        }
        self.last.map(|t| t + PARTIAL_TIMEOUT)
    }

    /// Decodes `bytes` that arrived at `now`, appending complete events to `out`.
    pub fn feed(&mut self, bytes: &[u8], now: Instant, out: &mut Vec<Event>) {
        if bytes.is_empty() {
            return;
        }
        self.last = Some(now);
        self.pending.extend_from_slice(bytes);
        self.decode(out);
    }

    /// Settles a partial sequence that has waited [`PARTIAL_TIMEOUT`] or more at `now`.
    pub fn expire(&mut self, now: Instant, out: &mut Vec<Event>) {
        if self.deadline().is_none_or(|d| now < d) {
            return;
        }
        self.skipping = false;
        if let Some(mut paste) = self.paste.take() {
            paste.append(&mut self.pending);
            out.push(Event::Paste(String::from_utf8_lossy(&paste).into_owned()));
            return;
        }
        match self.pending.as_slice() {
            [ESC] => out.push(key(KeyCode::Esc, KeyModifiers::NONE)),
            [ESC, b @ (b'[' | b'O')] => out.push(key(
                KeyCode::Char(char::from(*b)),
                KeyModifiers::ALT | shift_of(*b),
            )),
            // A fragment of a sequence or of a character: nothing a user meant as a key.
            _ => {}
        }
        self.pending.clear();
    }

    fn decode(&mut self, out: &mut Vec<Event>) {
        let mut start = 0;
        loop {
            let rest = &self.pending[start..];
            if let Some(paste) = &mut self.paste {
                if let Some(at) = find(rest, PASTE_END) {
                    paste.extend_from_slice(&rest[..at]);
                    out.push(Event::Paste(String::from_utf8_lossy(paste).into_owned()));
                    self.paste = None;
                    start += at + PASTE_END.len();
                    continue;
                }
                // Keep back only what may be the start of the end marker.
                let keep = (1..=rest.len().min(PASTE_END.len() - 1))
                    .rev()
                    .find(|&k| PASTE_END.starts_with(&rest[rest.len() - k..]))
                    .unwrap_or(0);
                paste.extend_from_slice(&rest[..rest.len() - keep]);
                start += rest.len() - keep;
                if paste.len() >= MAX_PASTE {
                    out.push(Event::Paste(String::from_utf8_lossy(paste).into_owned()));
                    paste.clear();
                }
                break;
            }
            if rest.is_empty() {
                break;
            }
            if self.skipping {
                let params = rest
                    .iter()
                    .take_while(|c| (0x20..=0x3f).contains(*c))
                    .count();
                match rest.get(params) {
                    Some(0x40..=0x7e) => start += params + 1,
                    Some(_) => start += params,
                    None => {
                        start += params;
                        break;
                    }
                }
                self.skipping = false;
                continue;
            }
            match step(rest) {
                Step::Done(n, event) => {
                    out.extend(event);
                    start += n;
                }
                Step::PasteStart(n) => {
                    self.paste = Some(Vec::new());
                    start += n;
                }
                Step::Overlong(n) => {
                    self.skipping = true;
                    start += n;
                }
                Step::Incomplete => break,
            }
        }
        self.pending.drain(..start);
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn key(code: KeyCode, modifiers: KeyModifiers) -> Event {
    Event::Key(KeyEvent::new(code, modifiers))
}

fn shift_of(b: u8) -> KeyModifiers {
    if b.is_ascii_uppercase() {
        KeyModifiers::SHIFT
    } else {
        KeyModifiers::NONE
    }
}

/// Decodes the front of `b` (never empty).
fn step(b: &[u8]) -> Step {
    if b[0] != ESC {
        return plain(b);
    }
    let Some(&next) = b.get(1) else {
        return Step::Incomplete;
    };
    match next {
        b'[' => csi(b),
        b'O' => match b.get(2) {
            None => Step::Incomplete,
            Some(&c) => Step::Done(3, ss3(c)),
        },
        ESC => Step::Done(1, Some(key(KeyCode::Esc, KeyModifiers::NONE))),
        _ => match plain(&b[1..]) {
            Step::Done(n, Some(Event::Key(mut k))) => {
                k.modifiers |= KeyModifiers::ALT;
                Step::Done(n + 1, Some(Event::Key(k)))
            }
            Step::Done(n, other) => Step::Done(n + 1, other),
            other => other,
        },
    }
}

/// A key that is not part of an escape sequence: a control byte or a UTF-8 character.
fn plain(b: &[u8]) -> Step {
    let c = b[0];
    let (code, modifiers) = match c {
        b'\r' | b'\n' => (KeyCode::Enter, KeyModifiers::NONE),
        b'\t' => (KeyCode::Tab, KeyModifiers::NONE),
        0x7f | 0x08 => (KeyCode::Backspace, KeyModifiers::NONE),
        0x00 => (KeyCode::Char(' '), KeyModifiers::CONTROL),
        0x01..=0x1a => (
            KeyCode::Char(char::from(c - 1 + b'a')),
            KeyModifiers::CONTROL,
        ),
        0x1b => (KeyCode::Esc, KeyModifiers::NONE),
        0x1c..=0x1f => (
            KeyCode::Char(char::from(c - 0x1c + b'4')),
            KeyModifiers::CONTROL,
        ),
        0x20..=0x7e => (KeyCode::Char(char::from(c)), shift_of(c)),
        _ => return utf8(b),
    };
    Step::Done(1, Some(key(code, modifiers)))
}

fn utf8(b: &[u8]) -> Step {
    let width = match b[0] {
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => return Step::Done(1, None),
    };
    let Some(bytes) = b.get(..width) else {
        return if b[1..].iter().all(|&x| (0x80..=0xbf).contains(&x)) {
            Step::Incomplete
        } else {
            Step::Done(1, None)
        };
    };
    match std::str::from_utf8(bytes)
        .ok()
        .and_then(|s| s.chars().next())
    {
        Some(ch) => Step::Done(width, Some(key(KeyCode::Char(ch), KeyModifiers::NONE))),
        None => Step::Done(1, None),
    }
}

/// `ESC O` and one byte: the arrow and F1-F4 keys of terminals in application mode.
fn ss3(c: u8) -> Option<Event> {
    let code = match c {
        b'A' => KeyCode::Up,
        b'B' => KeyCode::Down,
        b'C' => KeyCode::Right,
        b'D' => KeyCode::Left,
        b'H' => KeyCode::Home,
        b'F' => KeyCode::End,
        b'P'..=b'S' => KeyCode::F(c - b'P' + 1),
        _ => return None,
    };
    Some(key(code, KeyModifiers::NONE))
}

/// A control sequence `ESC [ params final`, or the legacy mouse report `ESC [ M b x y`.
fn csi(b: &[u8]) -> Step {
    if b.get(2) == Some(&b'M') {
        return match b.get(3..6) {
            Some(&[cb, cx, cy]) => Step::Done(
                6,
                mouse(
                    u16::from(cb.saturating_sub(32)),
                    u16::from(cx.saturating_sub(32)),
                    u16::from(cy.saturating_sub(32)),
                    false,
                ),
            ),
            _ => Step::Incomplete,
        };
    }
    let mut end = 2;
    loop {
        let Some(&c) = b.get(end) else {
            return Step::Incomplete;
        };
        match c {
            // Parameter and intermediate bytes.
            0x20..=0x3f => end += 1,
            0x40..=0x7e => break,
            // Not a control sequence after all: drop what came before this byte.
            _ => return Step::Done(end, None),
        }
        if end > MAX_SEQUENCE {
            return Step::Overlong(end);
        }
    }
    let params = &b[2..end];
    let len = end + 1;
    let final_byte = b[end];
    if let Some(sgr) = params.strip_prefix(b"<") {
        let [cb, cx, cy, ..] = numbers(sgr)[..] else {
            return Step::Done(len, None);
        };
        return match final_byte {
            b'M' | b'm' => Step::Done(len, mouse(cb, cx, cy, final_byte == b'm')),
            _ => Step::Done(len, None),
        };
    }
    let nums = numbers(params);
    let modifiers = nums.get(1).map_or(KeyModifiers::NONE, |&m| modifiers_of(m));
    let code = match final_byte {
        b'~' => match nums.first().copied().unwrap_or(0) {
            200 => return Step::PasteStart(len),
            1 | 7 => KeyCode::Home,
            2 => KeyCode::Insert,
            3 => KeyCode::Delete,
            4 | 8 => KeyCode::End,
            5 => KeyCode::PageUp,
            6 => KeyCode::PageDown,
            n @ 11..=15 => KeyCode::F((n - 10) as u8),
            n @ 17..=21 => KeyCode::F((n - 11) as u8),
            n @ 23..=24 => KeyCode::F((n - 12) as u8),
            _ => return Step::Done(len, None),
        },
        b'A' => KeyCode::Up,
        b'B' => KeyCode::Down,
        b'C' => KeyCode::Right,
        b'D' => KeyCode::Left,
        b'H' => KeyCode::Home,
        b'F' => KeyCode::End,
        b'P'..=b'S' => KeyCode::F(final_byte - b'P' + 1),
        b'Z' => return Step::Done(len, Some(key(KeyCode::BackTab, KeyModifiers::SHIFT))),
        b'I' if params.is_empty() => return Step::Done(len, Some(Event::FocusGained)),
        b'O' if params.is_empty() => return Step::Done(len, Some(Event::FocusLost)),
        // rxvt's mouse report (mode 1015): `ESC [ b ; x ; y M`.
        b'M' => {
            return match nums.as_slice() {
                [cb, cx, cy] => Step::Done(len, mouse(cb.saturating_sub(32), *cx, *cy, false)),
                _ => Step::Done(len, None),
            };
        }
        _ => return Step::Done(len, None),
    };
    Step::Done(len, Some(key(code, modifiers)))
}

/// The numbers of `1;5` and the like, saturating; empty fields count as 0.
fn numbers(params: &[u8]) -> Vec<u16> {
    params
        .split(|&c| c == b';')
        .map(|field| {
            field.iter().fold(0u16, |n, &d| {
                if d.is_ascii_digit() {
                    n.saturating_mul(10).saturating_add(u16::from(d - b'0'))
                } else {
                    n
                }
            })
        })
        .collect()
}

/// xterm's modifier parameter: one more than a bit set of shift, alt and control.
fn modifiers_of(m: u16) -> KeyModifiers {
    let bits = m.saturating_sub(1);
    let mut modifiers = KeyModifiers::NONE;
    if bits & 1 != 0 {
        modifiers |= KeyModifiers::SHIFT;
    }
    if bits & 2 != 0 {
        modifiers |= KeyModifiers::ALT;
    }
    if bits & 4 != 0 {
        modifiers |= KeyModifiers::CONTROL;
    }
    modifiers
}

/// A mouse report: button code `cb`, 1-based column and row.
fn mouse(cb: u16, cx: u16, cy: u16, release: bool) -> Option<Event> {
    // Bits 4, 8 and 16 are shift, alt and control: the bit set of xterm's modifier parameter.
    let modifiers = modifiers_of(((cb >> 2) & 7) + 1);
    let low = cb & 3;
    let kind = if cb & 64 != 0 {
        match low {
            0 => MouseEventKind::ScrollUp,
            1 => MouseEventKind::ScrollDown,
            2 => MouseEventKind::ScrollLeft,
            _ => MouseEventKind::ScrollRight,
        }
    } else if cb & 128 != 0 {
        return None;
    } else {
        let button = match low {
            0 => MouseButton::Left,
            1 => MouseButton::Middle,
            2 => MouseButton::Right,
            // The legacy report says "released" without saying which button.
            _ if cb & 32 != 0 => {
                return Some(mouse_event(MouseEventKind::Moved, cx, cy, modifiers));
            }
            _ => {
                return Some(mouse_event(
                    MouseEventKind::Up(MouseButton::Left),
                    cx,
                    cy,
                    modifiers,
                ));
            }
        };
        if release {
            MouseEventKind::Up(button)
        } else if cb & 32 != 0 {
            MouseEventKind::Drag(button)
        } else {
            MouseEventKind::Down(button)
        }
    };
    Some(mouse_event(kind, cx, cy, modifiers))
}

fn mouse_event(kind: MouseEventKind, cx: u16, cy: u16, modifiers: KeyModifiers) -> Event {
    Event::Mouse(MouseEvent {
        kind,
        column: cx.saturating_sub(1),
        row: cy.saturating_sub(1),
        modifiers,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode_all(bytes: &[u8]) -> (Vec<Event>, Decoder) {
        let mut d = Decoder::new();
        let mut out = Vec::new();
        d.feed(bytes, Instant::now(), &mut out);
        (out, d)
    }

    fn k(code: KeyCode) -> Event {
        key(code, KeyModifiers::NONE)
    }

    #[test]
    fn plain_keys_and_control_bytes() {
        let (out, d) = decode_all(b"aZ\r\t\x7f\x03");
        assert!(d.is_idle());
        assert_eq!(
            out,
            vec![
                k(KeyCode::Char('a')),
                key(KeyCode::Char('Z'), KeyModifiers::SHIFT),
                k(KeyCode::Enter),
                k(KeyCode::Tab),
                k(KeyCode::Backspace),
                key(KeyCode::Char('c'), KeyModifiers::CONTROL),
            ]
        );
    }

    #[test]
    fn arrows_function_keys_and_modifiers() {
        let (out, _) = decode_all(b"\x1b[A\x1bOB\x1b[1;5C\x1b[5~\x1b[15~\x1bOP\x1b[Z");
        assert_eq!(
            out,
            vec![
                k(KeyCode::Up),
                k(KeyCode::Down),
                key(KeyCode::Right, KeyModifiers::CONTROL),
                k(KeyCode::PageUp),
                k(KeyCode::F(5)),
                k(KeyCode::F(1)),
                key(KeyCode::BackTab, KeyModifiers::SHIFT),
            ]
        );
    }

    #[test]
    fn sgr_and_legacy_mouse_reports() {
        let (out, _) = decode_all(b"\x1b[<0;10;5M\x1b[<0;10;5m\x1b[<65;3;4M\x1b[M !\"");
        let at = |kind, column, row| {
            Event::Mouse(MouseEvent {
                kind,
                column,
                row,
                modifiers: KeyModifiers::NONE,
            })
        };
        assert_eq!(
            out,
            vec![
                at(MouseEventKind::Down(MouseButton::Left), 9, 4),
                at(MouseEventKind::Up(MouseButton::Left), 9, 4),
                at(MouseEventKind::ScrollDown, 2, 3),
                at(MouseEventKind::Down(MouseButton::Left), 0, 1),
            ]
        );
    }

    #[test]
    fn mouse_reports_carry_shift_alt_and_control() {
        let (out, _) = decode_all(b"\x1b[<4;1;1M\x1b[<8;1;1M\x1b[<16;1;1M\x1b[<28;1;1M");
        let modifiers: Vec<KeyModifiers> = out
            .iter()
            .map(|event| match event {
                Event::Mouse(mouse) => mouse.modifiers,
                other => panic!("not a mouse event: {other:?}"),
            })
            .collect();
        assert_eq!(
            modifiers,
            vec![
                KeyModifiers::SHIFT,
                KeyModifiers::ALT,
                KeyModifiers::CONTROL,
                KeyModifiers::SHIFT | KeyModifiers::ALT | KeyModifiers::CONTROL,
            ]
        );
    }

    #[test]
    fn utf8_split_across_reads() {
        let mut d = Decoder::new();
        let mut out = Vec::new();
        let now = Instant::now();
        d.feed(&[0xc3], now, &mut out);
        assert!(out.is_empty());
        d.feed(&[0xa9], now, &mut out);
        assert_eq!(out, vec![k(KeyCode::Char('é'))]);
    }

    #[test]
    fn paste_is_one_event_even_when_split() {
        let mut d = Decoder::new();
        let mut out = Vec::new();
        let now = Instant::now();
        d.feed(b"\x1b[200~ab\x1b[20", now, &mut out);
        assert!(out.is_empty());
        d.feed(b"1~q", now, &mut out);
        assert_eq!(out, vec![Event::Paste("ab".into()), k(KeyCode::Char('q'))]);
    }

    #[test]
    fn lone_escape_is_the_escape_key_after_the_timeout() {
        let mut d = Decoder::new();
        let mut out = Vec::new();
        let now = Instant::now();
        d.feed(b"\x1b", now, &mut out);
        d.expire(now + PARTIAL_TIMEOUT / 2, &mut out);
        assert!(out.is_empty(), "too early");
        d.expire(now + PARTIAL_TIMEOUT, &mut out);
        assert_eq!(out, vec![k(KeyCode::Esc)]);
        assert!(d.is_idle());
    }

    #[test]
    fn unfinished_sequences_do_not_hold_back_later_keys() {
        for partial in [
            &b"\x1b[200~abc"[..],
            b"\x1b[?",
            b"\x1b[<",
            b"\x1b[M",
            b"\x1b[<0;1",
        ] {
            let mut d = Decoder::new();
            let mut out = Vec::new();
            let now = Instant::now();
            d.feed(partial, now, &mut out);
            assert!(out.is_empty(), "{partial:?}");
            let later = now + PARTIAL_TIMEOUT;
            d.expire(later, &mut out);
            assert!(d.is_idle(), "{partial:?}");
            out.clear();
            d.feed(b"q", later, &mut out);
            assert_eq!(out, vec![k(KeyCode::Char('q'))], "{partial:?}");
        }
    }

    #[test]
    fn malformed_sequences_are_dropped_without_eating_the_next_key() {
        let (out, d) = decode_all(b"\x1b[12\x01x");
        assert!(d.is_idle());
        assert_eq!(
            out,
            vec![
                key(KeyCode::Char('a'), KeyModifiers::CONTROL),
                k(KeyCode::Char('x'))
            ]
        );
        let long = [b"\x1b[".as_slice(), &[b'1'; 200], b"q"].concat();
        let (out, d) = decode_all(&long);
        assert!(d.is_idle());
        assert!(out.is_empty(), "{out:?}");
    }
}
