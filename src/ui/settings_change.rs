//! What a change of a view's settings does: which fields changed, whether
//! the run takes them in place or starts over from its seed (its twin
//! with it), and the words the charts mark the change with.

use super::options::{Kind, Options};
use crate::scenario::{Field, Scenario, FIELDS};

/// A change from one scenario to another, in a view of a kind and options.
pub struct SettingsChange {
    /// The fields whose values differ, in the table's order.
    pub fields: Vec<&'static Field>,
    /// Whether the run starts over from its seed, rather than taking the
    /// change in place.
    pub starts_over: bool,
}

/// How many of the fields changed the charts name.
const NAMED: usize = 2;

impl SettingsChange {
    /// The change from `old` to `new` in a view of `kind` with `options`.
    /// A field that cannot change while a run goes on starts it over; so
    /// does any change (a change of speed alone too) in a view compared
    /// with a twin, or in an embed that reads its run back in words, so
    /// that the comparison and the sentences cover one setting from one
    /// start.
    pub fn between(old: &Scenario, new: &Scenario, kind: Kind, options: &Options) -> SettingsChange {
        let fields: Vec<&'static Field> = FIELDS.iter().filter(|f| f.text(old) != f.text(new)).collect();
        let always = !options.versus.is_empty() || (kind == Kind::Embed && !options.say.is_empty());
        let starts_over = always || fields.iter().any(|f| !f.is_live());
        SettingsChange { fields, starts_over }
    }

    /// The first fields changed as they are in `scenario`, each joined to
    /// its value by `joint` ("load = 0.7, servers = 10" before, "load → 0.9"
    /// after).
    pub fn words(&self, scenario: &Scenario, joint: &str) -> String {
        let words: Vec<String> = self
            .fields
            .iter()
            .take(NAMED)
            .map(|f| format!("{} {joint} {}", f.key, f.text(scenario)))
            .collect();
        words.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::hash;

    /// The options and scenario a link gives a view of `kind`, and the
    /// scenario with `changes` ("key=value&…") made to it.
    fn before_after(kind: Kind, link: &str, changes: &str) -> (Scenario, Scenario, Options) {
        let before = hash::parse(link, kind);
        assert!(before.notices.is_empty(), "{link}");
        let mut params = before.params.clone();
        for (key, value) in changes.split('&').filter_map(|c| c.split_once('=')) {
            params.set(key, value).unwrap_or_else(|e| panic!("{key}={value}: {e}"));
        }
        (before.params.scenario, params.scenario, before.options)
    }

    #[test]
    fn a_live_field_changes_in_place_and_one_that_is_not_starts_over() {
        let (old, new, options) = before_after(Kind::Lab, "load=0.7", "load=0.9");
        let change = SettingsChange::between(&old, &new, Kind::Lab, &options);
        assert!(!change.starts_over);
        assert_eq!(
            (change.words(&old, "="), change.words(&new, "→")),
            ("load = 0.7".into(), "load → 0.9".into())
        );
        let (old, new, options) = before_after(Kind::Lab, "load=0.7", "load=0.9&servers=12");
        let change = SettingsChange::between(&old, &new, Kind::Lab, &options);
        assert!(change.starts_over, "servers cannot change while a run goes on");
        assert_eq!(change.words(&new, "→"), "servers → 12, load → 0.9");
    }

    #[test]
    fn the_charts_name_two_fields_at_most() {
        let (old, new, options) = before_after(Kind::Lab, "", "servers=12&clients=30&load=0.5");
        let change = SettingsChange::between(&old, &new, Kind::Lab, &options);
        assert_eq!(change.fields.len(), 3);
        assert_eq!(change.words(&new, "→"), "servers → 12, clients → 30");
    }

    #[test]
    fn a_view_with_a_twin_or_an_embed_reading_its_run_back_starts_over_on_any_change() {
        for (kind, link) in [(Kind::Lab, "versus=policy:random"), (Kind::Embed, "say=tail")] {
            let (old, new, options) = before_after(kind, link, "load=0.9");
            assert!(SettingsChange::between(&old, &new, kind, &options).starts_over, "{link}");
            // Even a change of speed alone, which changes no field.
            let change = SettingsChange::between(&old, &old, kind, &options);
            assert!(change.fields.is_empty() && change.starts_over, "{link}");
        }
        // The lab's sentences are not read back from one start.
        let (old, new, options) = before_after(Kind::Lab, "say=tail", "load=0.9");
        assert!(!SettingsChange::between(&old, &new, Kind::Lab, &options).starts_over);
    }
}
