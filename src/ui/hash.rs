//! The URL hash mirrors every setting as `key=value&key=value`, so reloading
//! or sharing the link restores exactly that state: the scenario's fields,
//! the speed, and the view's options (see `options`). Entries that are
//! unknown, malformed or out of range become [`Notice`]s naming the entry and
//! the value used instead; the rest of the hash still applies.

use super::controls::CONTROLS;
pub use super::notice::Notice;
use super::options::{Kind, Options};
use super::params::{Params, SPEED_KEY};
use crate::scenario::FIELDS;

/// What a hash describes, each part starting from its defaults.
pub struct Parsed {
    pub params: Params,
    pub options: Options,
    pub notices: Vec<Notice>,
}

/// The settings and options a hash describes for a view of `kind`.
pub fn parse(hash: &str, kind: Kind) -> Parsed {
    let mut params = Params::default();
    let mut options = Options::defaults(kind);
    let mut notices = Vec::new();
    let mut settings = Vec::new();
    for entry in hash.trim_start_matches('#').split('&').filter(|e| !e.is_empty()) {
        let Some((key, raw)) = entry.split_once('=') else {
            notices.push(Notice::malformed(&decode(entry)));
            continue;
        };
        let (key, value) = (decode(key), decode(raw));
        if Options::has(&key) {
            if let Err(error) = options.set(&key, &value) {
                notices.push(Notice::rejected(&key, &value, &error, &options.text(&key)));
            }
        } else {
            settings.push((key, value));
        }
    }
    for (key, value, error) in params.set_all(settings) {
        notices.push(Notice::rejected(&key, &value, &error, &params.text(&key)));
    }
    Parsed { params, options, notices }
}

/// The keys of `hash`'s entries.
pub fn entries(hash: &str) -> Vec<String> {
    hash.trim_start_matches('#')
        .split('&')
        .filter_map(|entry| entry.split_once('='))
        .map(|(k, _)| decode(k))
        .collect()
}

/// Whether `hash` has an entry for `key`.
pub fn names(hash: &str, key: &str) -> bool {
    entries(hash).iter().any(|k| k == key)
}

/// Which scenario fields a hash lists.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Fields {
    /// Every control's setting and any other field that differs from its
    /// default: short, for the address bar.
    Shown,
    /// Every field, so the link means the same even if defaults change.
    Every,
}

/// The hash for `params` and the options of a view of `kind`: the fields
/// asked for, the speed, and the options that differ from that kind's.
pub fn format(params: &Params, options: &Options, kind: Kind, fields: Fields) -> String {
    let defaults = Params::default();
    let mut entries: Vec<String> = FIELDS
        .iter()
        .filter(|f| {
            fields == Fields::Every
                || CONTROLS.iter().any(|c| c.key == f.key)
                || f.text(&params.scenario) != f.text(&defaults.scenario)
        })
        .map(|f| format!("{}={}", f.key, encode(&f.text(&params.scenario))))
        .collect();
    entries.push(format!("{SPEED_KEY}={}", encode(&params.text(SPEED_KEY))));
    let option_entries = options.entries(&Options::defaults(kind));
    entries.extend(option_entries.iter().map(|(key, text)| format!("{key}={}", encode(text))));
    entries.join("&")
}

/// Percent-encodes all but the characters values are made of.
fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'.' | b',' | b'-' | b'_' | b'~' => {
                out.push(byte as char)
            }
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

/// Decodes `%XX` escapes and `+`; malformed escapes stay as they are.
fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'%')
            .then(|| text.get(i + 1..i + 3))
            .flatten()
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match (bytes[i], escaped) {
            (_, Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (b'+', None) => {
                out.push(b' ');
                i += 1;
            }
            (byte, None) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}
