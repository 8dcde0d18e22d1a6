//! The fields of keyed traffic and its placement: how many keys requests
//! carry, how popular each is, whether a session shares one, and the
//! settings the key-placing schemes read (a ring's points, bounded load's
//! factor, a mapping table's lag). [`FIELDS`](super::FIELDS) lists them in
//! their place.

use super::fields::{Field, FieldKind, Live, Value};
use super::help::Help;
use super::{KeyPer, MAX_KEY_SPACE};

pub(super) const KEY_SPACE: Field = Field {
    key: "key_space",
    help: Help::Everywhere("distinct keys requests carry (users, shards, cache keys), numbered from 0; the key-placing policies (modulo to bounded-load) route by them"),
    kind: FieldKind::Count { min: 1, max: MAX_KEY_SPACE },
    live: Live::No,
    get: |s| Value::Count(s.key_space.into()),
    put: |s, v| s.key_space = v.count() as u32,
};

pub(super) const KEY_POPULARITY: Field = Field {
    key: "key_popularity",
    help: Help::Everywhere("0: every key equally popular; above 0, the exponent s of Zipf's law (key k, from 0, drawn in proportion to (k + 1)^-s)"),
    kind: FieldKind::ZeroOrNumber { min: 0.01, max: 10.0 },
    live: Live::No,
    get: |s| Value::Number(s.key_popularity),
    put: |s, v| s.key_popularity = v.number(),
};

pub(super) const KEY_PER: Field = Field {
    key: "key_per",
    help: Help::Everywhere("session: a session's requests share one key, so a key-placing policy keeps the whole session where its key lives (affinity); request: each request draws its own key and is placed by it"),
    kind: FieldKind::Choice(KeyPer::NAMES),
    live: Live::No,
    get: |s| Value::Choice(s.key_per.name()),
    put: |s, v| s.key_per = KeyPer::from_name(v.choice()).unwrap_or(s.key_per),
};

pub(super) const VIRTUAL_NODES: Field = Field {
    key: "virtual_nodes",
    help: Help::Everywhere("points each server takes on the ring of ring and bounded-load (more: a more even share of keys, a larger ring)"),
    kind: FieldKind::Count { min: 1, max: 10_000 },
    live: Live::Policies,
    get: |s| Value::Count(s.virtual_nodes.into()),
    put: |s, v| s.virtual_nodes = v.count() as u32,
};

pub(super) const BOUNDED_LOAD_C: Field = Field {
    key: "bounded_load_c",
    help: Help::Everywhere("under bounded-load, no server takes a request while it holds more than this many times the mean load"),
    kind: FieldKind::Number { min: 1.01, max: 10.0 },
    live: Live::Policies,
    get: |s| Value::Number(s.bounded_load_c),
    put: |s, v| s.bounded_load_c = v.number(),
};

pub(super) const TABLE_LAG_MS: Field = Field {
    key: "table_lag_ms",
    help: Help::Everywhere("under the table policy, how long after a membership change the last chooser's copy of the mapping table takes the new version; chooser i of n takes it (i + 1)/n of the way through, so for a while choosers disagree on where a key lives (hash schemes need no copy and always agree)"),
    kind: FieldKind::Number { min: 0.0, max: 600_000.0 },
    live: Live::AtUse,
    get: |s| Value::Number(s.table_lag_ms),
    put: |s, v| s.table_lag_ms = v.number(),
};
