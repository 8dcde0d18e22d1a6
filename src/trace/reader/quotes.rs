//! A CSV's quotes, watched as its bytes go to the parser: a quote left
//! open would make the rest of the file one value of one row, which the
//! `csv` crate takes without a word at the end of the file. The watch
//! follows the crate's reading (RFC 4180 with `""` for a quote within a
//! quoted value, and a quote not at a value's start taken as it is) and
//! remembers the line where the open quote began.

use std::io::{self, Read};

/// Where the bytes read so far leave a value.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Value {
    /// At its start: a quote here opens a quoted value.
    Start,
    Unquoted,
    Quoted,
    /// In a quoted value, just after a quote: another makes a quote within
    /// it, anything else ends the quoting.
    QuoteInQuoted,
}

/// A reader that watches the CSV quoting of the bytes through it.
pub(super) struct Quotes<R> {
    inner: R,
    value: Value,
    /// The line being read, from 1, and the one the open quote began on.
    line: u64,
    opened: u64,
    bytes: u64,
    ended: bool,
}

impl<R> Quotes<R> {
    pub fn new(inner: R) -> Quotes<R> {
        Quotes { inner, value: Value::Start, line: 1, opened: 0, bytes: 0, ended: false }
    }

    /// When the source ended inside a quoted value and the parser has taken
    /// all of it (`consumed` bytes): the line the quote opened on.
    pub fn left_open(&self, consumed: u64) -> Option<u64> {
        let open = self.value == Value::Quoted;
        (self.ended && open && consumed == self.bytes).then_some(self.opened)
    }

    fn watch(&mut self, byte: u8) {
        use Value::*;
        self.value = match (self.value, byte) {
            (Start, b'"') => {
                self.opened = self.line;
                Quoted
            }
            (Quoted, b'"') => QuoteInQuoted,
            (QuoteInQuoted, b'"') | (Quoted, _) => Quoted,
            (_, b',' | b'\n' | b'\r') => Start,
            _ => Unquoted,
        };
        self.line += u64::from(byte == b'\n');
    }
}

impl<R: Read> Read for Quotes<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let read = self.inner.read(buf)?;
        self.bytes += read as u64;
        self.ended |= read == 0 && !buf.is_empty();
        buf[..read].iter().for_each(|byte| self.watch(*byte));
        Ok(read)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn left_open(text: &str) -> Option<u64> {
        let mut quotes = Quotes::new(text.as_bytes());
        io::copy(&mut quotes, &mut io::sink()).unwrap();
        quotes.left_open(text.len() as u64)
    }

    #[test]
    fn finds_the_quote_left_open() {
        assert_eq!(left_open("time_s,key\n1,\"a\"\n2,\"b\"\"c\"\n"), None);
        assert_eq!(left_open("time_s,key\n1,\"a\nb\"\n2,c\n"), None);
        assert_eq!(left_open("time_s,key\n1,a\"b\n2,c\n"), None, "a quote within an unquoted value");
        assert_eq!(left_open("time_s,key\n1,\"a\n2,b\n3,c\n"), Some(2));
        assert_eq!(left_open("time_s,key\n1,\"a\"\"\n2,b"), Some(2), "a quote within, then none");
    }
}
