//! The moments a chart over time marks: settings changed live, and servers
//! failing, recovering, joining and leaving, from the scenario's schedules
//! (which the engine also records live failures and membership changes
//! into, at the instants they applied).

use crate::scenario::failures::Failure;
use crate::scenario::membership::in_order;
use crate::scenario::{Change, Scenario};

/// Something changed at `time_s` simulated seconds, as `label` says.
#[derive(Clone, Debug, PartialEq)]
pub struct Marker {
    pub time_s: f64,
    pub label: String,
}

/// Live changes of settings remembered for marking.
const MAX_SETTINGS: usize = 8;
/// Live changes closer than this (simulated seconds) share one mark.
const MERGE_S: f64 = 3.0;

/// The latest live changes of settings, oldest first: a change soon after
/// another takes its mark (so that labels never pile up), and only the last
/// few are kept.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SettingsChanges {
    markers: Vec<Marker>,
}

impl SettingsChanges {
    /// Settings changed at `time_s` to what `label` says.
    pub fn push(&mut self, time_s: f64, label: &str) {
        match self.markers.last_mut() {
            Some(last) if time_s - last.time_s < MERGE_S => last.label = label.to_string(),
            _ => {
                if self.markers.len() == MAX_SETTINGS {
                    self.markers.remove(0);
                }
                self.markers.push(Marker { time_s, label: label.to_string() });
            }
        }
    }

    /// The simulation started over.
    pub fn clear(&mut self) {
        self.markers.clear();
    }

    pub fn markers(&self) -> &[Marker] {
        &self.markers
    }
}

/// What `scenario`'s failure and membership schedules did up to `until_s`
/// simulated seconds, in time order: a mark for each failure, its end or
/// a recovery, and each server joining, leaving, crashing or coming back.
/// Changes at the same instant share one mark ("server 0 down and 6 more").
pub fn server_events(scenario: &Scenario, until_s: f64) -> Vec<Marker> {
    let mut events: Vec<(f64, String)> = Vec::new();
    for due in &scenario.failures {
        let server = due.server;
        let what = match due.failure {
            None => "recovers".to_string(),
            Some(Failure::Down) => "down".to_string(),
            Some(Failure::Slow { factor }) => format!("slow ×{factor}"),
            Some(Failure::FastFail { .. }) => "fails fast".to_string(),
            Some(Failure::Flap { .. }) => "flaps".to_string(),
        };
        events.push((due.at_s, format!("server {server} {what}")));
        if let (Some(_), Some(for_s)) = (due.failure, due.for_s) {
            events.push((due.at_s + for_s, format!("server {server} recovers")));
        }
    }
    let mut next_index = scenario.servers;
    for due in in_order(&scenario.membership) {
        let said = match due.change {
            Change::Add => {
                next_index += 1;
                format!("server {} joins", next_index - 1)
            }
            Change::Remove(s) => format!("server {s} leaves"),
            Change::Crash(s) => format!("server {s} crashes"),
            Change::Restore(s) => format!("server {s} rejoins"),
        };
        events.push((due.at_s, said));
    }
    events.retain(|(at_s, _)| *at_s <= until_s);
    crate::sort::sort_by(&mut events, |a, b| a.0.total_cmp(&b.0));
    let mut markers: Vec<(Marker, usize)> = Vec::new();
    for (time_s, label) in events {
        match markers.last_mut() {
            Some((last, more)) if last.time_s == time_s => *more += 1,
            _ => markers.push((Marker { time_s, label }, 0)),
        }
    }
    markers
        .into_iter()
        .map(|(marker, more)| match more {
            0 => marker,
            n => Marker { label: format!("{} and {n} more", marker.label), ..marker },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenario(settings: &[(&str, &str)]) -> Scenario {
        let mut scenario = Scenario::default();
        for (key, value) in settings {
            scenario.set(key, value).unwrap();
        }
        scenario
    }

    fn labels(markers: &[Marker]) -> Vec<(f64, &str)> {
        markers.iter().map(|m| (m.time_s, m.label.as_str())).collect()
    }

    #[test]
    fn failures_their_ends_and_recoveries_are_marked_once_they_happened() {
        let s = scenario(&[(
            "failures",
            "10s:down:3:for=5s, 20s:slow:2:x=0.25, 30s:fast-fail:4:p=0.9, 40s:recover:4",
        )]);
        assert_eq!(
            labels(&server_events(&s, 60.0)),
            [
                (10.0, "server 3 down"),
                (15.0, "server 3 recovers"),
                (20.0, "server 2 slow ×0.25"),
                (30.0, "server 4 fails fast"),
                (40.0, "server 4 recovers"),
            ]
        );
        assert_eq!(labels(&server_events(&s, 12.0)), [(10.0, "server 3 down")]);
        assert!(server_events(&Scenario::default(), 60.0).is_empty());
    }

    #[test]
    fn servers_joining_and_leaving_are_marked_with_the_index_they_take() {
        let s = scenario(&[("membership", "20s:remove:1, 10s:add, 30s:crash:4, 40s:restore:4, 50s:add")]);
        assert_eq!(
            labels(&server_events(&s, 60.0)),
            [
                (10.0, "server 10 joins"),
                (20.0, "server 1 leaves"),
                (30.0, "server 4 crashes"),
                (40.0, "server 4 rejoins"),
                (50.0, "server 11 joins"),
            ]
        );
    }

    #[test]
    fn changes_at_one_instant_share_a_mark() {
        let s = scenario(&[("failures", "2s:down:0,2s:down:1,2s:down:2"), ("membership", "2s:add")]);
        assert_eq!(labels(&server_events(&s, 5.0)), [(2.0, "server 0 down and 3 more")]);
    }

    #[test]
    fn settings_changes_close_together_share_a_mark_and_only_the_last_are_kept() {
        let mut changes = SettingsChanges::default();
        changes.push(1.0, "load → 0.5");
        changes.push(2.0, "load → 0.7");
        assert_eq!(labels(changes.markers()), [(1.0, "load → 0.7")]);
        for k in 1..=10 {
            changes.push(f64::from(k) * 10.0, &format!("change {k}"));
        }
        let kept = changes.markers();
        assert_eq!(kept.len(), MAX_SETTINGS);
        assert_eq!(kept.last().map(|m| m.label.as_str()), Some("change 10"));
        changes.clear();
        assert!(changes.markers().is_empty());
    }
}
