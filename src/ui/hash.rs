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
    /// Only the fields that differ from their defaults, the speed too:
    /// the shortest link, for a snippet pasted into a post (every field
    /// made it 1,265 characters, 50 fields, to say what differed).
    Changed,
}

impl Fields {
    /// Whether a field is listed, being a control's when `control`, and
    /// set to its default when `default`.
    fn lists(self, control: bool, default: bool) -> bool {
        match self {
            Fields::Every => true,
            Fields::Shown => control || !default,
            Fields::Changed => !default,
        }
    }
}

/// The hash for `params` and the options of a view of `kind`: the fields
/// asked for, the speed, and the options that differ from that kind's.
pub fn format(params: &Params, options: &Options, kind: Kind, fields: Fields) -> String {
    let defaults = Params::default();
    let mut entries: Vec<String> = FIELDS
        .iter()
        .filter(|f| {
            let control = CONTROLS.iter().any(|c| c.key == f.key);
            fields.lists(control, f.text(&params.scenario) == f.text(&defaults.scenario))
        })
        .map(|f| format!("{}={}", f.key, encode(&f.text(&params.scenario))))
        .collect();
    if fields.lists(true, params.text(SPEED_KEY) == defaults.text(SPEED_KEY)) {
        entries.push(format!("{SPEED_KEY}={}", encode(&params.text(SPEED_KEY))));
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::PolicyKind;
    use crate::ui::options::{Chart, Theme, KEYS};

    fn messages(hash: &str) -> Vec<String> {
        parse(hash, Kind::Embed).notices.into_iter().map(|n| n.message).collect()
    }

    #[test]
    fn an_empty_hash_gives_each_kinds_defaults() {
        for kind in [Kind::Lab, Kind::Embed] {
            for hash in ["", "#", "#&&"] {
                let parsed = parse(hash, kind);
                assert_eq!(parsed.params, Params::default());
                assert_eq!(parsed.options, Options::defaults(kind));
                assert!(parsed.notices.is_empty());
            }
        }
    }

    #[test]
    fn settings_and_options_apply_in_one_hash() {
        let parsed = parse("#policy=random&servers=20&speed=0.5&charts=load,clients&theme=dark", Kind::Embed);
        assert_eq!(parsed.params.scenario.policy, PolicyKind::RANDOM);
        assert_eq!(parsed.params.scenario.servers, 20);
        assert_eq!(parsed.params.speed, 0.5);
        assert_eq!(parsed.options.charts, [Chart::named("load").unwrap(), Chart::named("clients").unwrap()]);
        assert_eq!(parsed.options.theme, Theme::Dark);
        assert!(parsed.notices.is_empty());
    }

    #[test]
    fn each_bad_entry_names_itself_and_what_is_allowed_and_the_rest_applies() {
        let parsed = parse("servers=0&load=0.5&height=100&sever=3&policy", Kind::Embed);
        assert_eq!(parsed.params.scenario.servers, Params::default().scenario.servers);
        assert_eq!(parsed.params.scenario.load, 0.5);
        assert_eq!(parsed.options.height, None);
        let messages: Vec<String> = parsed.notices.into_iter().map(|n| n.message).collect();
        let servers = Params::default().text("servers");
        assert_eq!(
            messages,
            [
                "“height=100”: expected \"auto\" or whole pixels from 240 to 4000; using auto instead."
                    .to_string(),
                "“policy” is not of the form key=value; ignored.".to_string(),
                format!("“servers=0”: expected a whole number from 1 to 10000; using {servers} instead."),
                "“sever” is not a setting (did you mean “servers”?); ignored.".to_string(),
            ]
        );
    }

    #[test]
    fn a_bad_option_keeps_the_kinds_default() {
        let lab = parse("controls=policy,nonsense&charts=pie&theme=sepia", Kind::Lab);
        assert_eq!(lab.options, Options::defaults(Kind::Lab));
        assert_eq!(lab.notices.len(), 3);
        assert!(lab.notices[0].message.starts_with("“controls=policy,nonsense”: expected \"all\", \"none\""));
        assert!(lab.notices[0].message.ends_with("; using all instead."), "{}", lab.notices[0].message);
        assert!(lab.notices[1]
            .message
            .contains("percentiles, waits, clients, load, keys; using all instead."));
        assert_eq!(
            lab.notices[2].message,
            "“theme=sepia”: expected one of auto, light, dark; using auto instead."
        );
        let embed = messages("charts=pie");
        assert!(embed[0].ends_with("; using percentiles instead."), "{}", embed[0]);
    }

    #[test]
    fn escapes_decode_and_malformed_ones_stay() {
        let parsed = parse("caption=Power%20of+two%E2%80%94live%zz%2", Kind::Embed);
        assert_eq!(parsed.options.caption, "Power of two—live%zz%2");
        assert!(parsed.notices.is_empty());
        assert_eq!(messages("%73ervers=0")[0].split(':').next(), Some("“servers=0”"));
    }

    #[test]
    fn fields_that_must_agree_apply_in_either_order() {
        let agreed = ["class_shares=0.5,0.5", "class_costs=1,2", "class_pools=0-4,5-9"];
        let reversed: Vec<&str> = agreed.iter().rev().copied().collect();
        for hash in [agreed.join("&"), reversed.join("&")] {
            let parsed = parse(&hash, Kind::Embed);
            assert!(parsed.notices.is_empty(), "{hash}: {:?}", parsed.notices);
            assert_eq!(parsed.params.scenario.class_pools, [(0, 4), (5, 9)]);
        }
        let alone = messages("class_pools=0-4,5-9");
        assert_eq!(alone.len(), 1);
        assert!(
            alone[0].starts_with("“class_pools=0-4,5-9”: fields class_pools, class_shares:"),
            "{}",
            alone[0]
        );
    }

    #[test]
    fn a_formatted_hash_reads_back_as_it_was() {
        let given = "policy=ring&virtual_nodes=20&speed=0.05&controls=policy,servers&charts=none\
                     &caption=A%20ring%3B%20its%20keys&height=480&autoplay=0&theme=light\
                     &versus=policy:random;staleness_ms:0&say=versus,ratios&presenter=1&metric=latency";
        let parsed = parse(given, Kind::Embed);
        assert!(parsed.notices.is_empty(), "{:?}", parsed.notices);
        for kind in [Kind::Lab, Kind::Embed] {
            for fields in [Fields::Shown, Fields::Every, Fields::Changed] {
                let again = parse(&format(&parsed.params, &parsed.options, kind, fields), kind);
                assert_eq!(again.params, parsed.params);
                assert_eq!(again.options, parsed.options);
                assert!(again.notices.is_empty());
            }
        }
    }

    #[test]
    fn a_shown_hash_lists_the_controls_and_what_differs_and_every_lists_all() {
        let params = parse("service_mean_ms=10", Kind::Lab).params;
        let shown = format(&params, &Options::defaults(Kind::Lab), Kind::Lab, Fields::Shown);
        let keys = entries(&shown);
        assert!(CONTROLS.iter().all(|c| keys.iter().any(|k| k == c.key)));
        assert!(names(&shown, "service_mean_ms"));
        assert!(!names(&shown, "class_shares"));
        assert!(!KEYS.iter().any(|k| names(&shown, k)), "{shown}");
        let every = format(&params, &Options::defaults(Kind::Lab), Kind::Embed, Fields::Every);
        // Every field, the speed, and the two options in which the lab's
        // defaults differ from an embed's.
        assert_eq!(entries(&every).len(), FIELDS.len() + 3);
        assert!(names(&every, "controls") && names(&every, "charts"));
    }

    #[test]
    fn a_changed_hash_lists_only_what_differs_from_the_defaults() {
        let params = parse("policy=ring&servers=12&speed=0.5", Kind::Embed).params;
        let options = parse("charts=keys&autoplay=0", Kind::Embed).options;
        let changed = format(&params, &options, Kind::Embed, Fields::Changed);
        assert_eq!(changed, "servers=12&policy=ring&speed=0.5&charts=keys&autoplay=0");
        let defaults =
            format(&Params::default(), &Options::defaults(Kind::Embed), Kind::Embed, Fields::Changed);
        assert_eq!(defaults, "");
    }
}
