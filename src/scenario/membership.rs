//! Membership changes: servers added, removed (drained) or crashed, and
//! restored, on a schedule written `TIME:KIND[:SERVER]`, comma
//! separated: `10s:add, 20s:remove:3, 30s:crash:5, 40s:restore:5`.
//!
//! Servers keep their index for good: an added server takes the next one,
//! and a removed or crashed one keeps its index but leaves every member
//! set. [`Roster`] is the one account of which servers are members; the
//! scenario replays its schedule on it to refuse a change that could never
//! apply (a server that does not exist, one already gone, the last one),
//! and the engine keeps one to apply changes live, with the same messages.

use super::fields::format_number;
use super::schedule::{self, ScheduleError};
use serde::Serialize;

/// What happens to the membership.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "server")]
pub enum Change {
    /// A new server joins, with the next index.
    Add,
    /// The server takes no new requests; those it holds finish (a drain).
    Remove(u32),
    /// The server stops at once; the requests it holds go back to their
    /// choosers to be placed again.
    Crash(u32),
    /// A removed or crashed server joins again, empty.
    Restore(u32),
}

impl Change {
    pub fn server(self) -> Option<u32> {
        match self {
            Change::Add => None,
            Change::Remove(s) | Change::Crash(s) | Change::Restore(s) => Some(s),
        }
    }

    /// The change as the schedule writes it (`remove:3`).
    pub fn text(self) -> String {
        match self {
            Change::Add => "add".into(),
            Change::Remove(s) => format!("remove:{s}"),
            Change::Crash(s) => format!("crash:{s}"),
            Change::Restore(s) => format!("restore:{s}"),
        }
    }
}

/// One scheduled change.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Scheduled {
    /// Simulated seconds from the start.
    pub at_s: f64,
    pub change: Change,
}

/// The most changes a schedule may hold.
pub const MAX_CHANGES: usize = 100;
/// The most servers a simulation may hold, added ones included (`servers`' limit).
pub const MAX_SERVERS: u32 = 10_000;

impl Scheduled {
    /// Parses `TIME:KIND[:SERVER]`.
    fn parse(text: &str) -> Result<Scheduled, String> {
        let parts: Vec<&str> = text.split(':').collect();
        let (at, kind, server) = match parts[..] {
            [at, kind] => (at, kind.trim(), None),
            [at, kind, server] => (at, kind.trim(), Some(schedule::server(server)?)),
            _ => return Err("write TIME:add or TIME:KIND:SERVER (20s:remove:3)".into()),
        };
        let at_s = schedule::at_seconds(at)?;
        let change = match (kind, server) {
            ("add", None) => Change::Add,
            ("add", Some(_)) => return Err("add takes no server: the new one takes the next number".into()),
            ("remove", Some(s)) => Change::Remove(s),
            ("crash", Some(s)) => Change::Crash(s),
            ("restore", Some(s)) => Change::Restore(s),
            ("remove" | "crash" | "restore", None) => {
                return Err(format!("{kind} needs a server: TIME:{kind}:SERVER"))
            }
            _ => {
                return Err(format!("the change is add, remove, crash or restore, not {}", super::echo(kind)))
            }
        };
        Ok(Scheduled { at_s, change })
    }
}

/// Parses a whole schedule: "none", or changes separated by commas.
pub fn parse(text: &str) -> Result<Vec<Scheduled>, ScheduleError> {
    schedule::parse(text, MAX_CHANGES, Scheduled::parse)
}

/// The schedule as text that `parse` reads back.
pub fn text(changes: &[Scheduled]) -> String {
    schedule::text(changes, |c| format!("{}s:{}", format_number(c.at_s), c.change.text()))
}

/// The schedule in the order it applies: by time, ties in the order written
/// (as the event queue runs them).
pub fn in_order(changes: &[Scheduled]) -> Vec<Scheduled> {
    let mut ordered = changes.to_vec();
    crate::sort::sort_by(&mut ordered, |a, b| a.at_s.total_cmp(&b.at_s));
    ordered
}

/// Whether a server is a member, and if not, how it left.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Standing {
    #[default]
    Member,
    Removed,
    Crashed,
}

/// Which servers are members; the rules every change must keep.
#[derive(Clone, Debug, PartialEq)]
pub struct Roster {
    standing: Vec<Standing>,
    /// With class pools, each class's range of servers, which must keep a
    /// member; empty without.
    class_pools: Vec<(u32, u32)>,
}

impl Roster {
    pub fn new(servers: u32, class_pools: &[(u32, u32)]) -> Roster {
        Roster { standing: vec![Standing::Member; servers as usize], class_pools: class_pools.to_vec() }
    }

    /// Every server ever, members or not.
    pub fn len(&self) -> usize {
        self.standing.len()
    }

    pub fn is_empty(&self) -> bool {
        self.standing.is_empty()
    }

    pub fn standing(&self, server: usize) -> Standing {
        self.standing.get(server).copied().unwrap_or(Standing::Removed)
    }

    pub fn is_member(&self, server: usize) -> bool {
        self.standing(server) == Standing::Member
    }

    /// The members, ascending.
    pub fn members(&self) -> Vec<u32> {
        (0..self.standing.len() as u32).filter(|&s| self.is_member(s as usize)).collect()
    }

    /// Applies `change`, or says in words why it cannot apply (the roster
    /// is then as it was).
    pub fn apply(&mut self, change: Change) -> Result<(), String> {
        let Some(server) = change.server() else {
            if self.standing.len() as u32 >= MAX_SERVERS {
                return Err(format!(
                    "a simulation holds at most {MAX_SERVERS} servers, removed ones included"
                ));
            }
            self.standing.push(Standing::Member);
            return Ok(());
        };
        let last = self.standing.len().saturating_sub(1);
        let standing = match self.standing.get(server as usize) {
            None => return Err(format!("there is no server {server}: servers are numbered 0 to {last}")),
            Some(&standing) => standing,
        };
        let next = match (change, standing) {
            (Change::Restore(_), Standing::Member) => {
                return Err(format!(
                    "server {server} is a member already: only a removed or crashed one is restored"
                ))
            }
            (Change::Restore(_), _) => Standing::Member,
            (_, Standing::Removed) => return Err(format!("server {server} was removed already")),
            (_, Standing::Crashed) => return Err(format!("server {server} has crashed already")),
            (Change::Crash(_), Standing::Member) => Standing::Crashed,
            (_, Standing::Member) => Standing::Removed,
        };
        let before = std::mem::replace(&mut self.standing[server as usize], next);
        if let Some(reason) = self.without_members() {
            self.standing[server as usize] = before;
            return Err(format!("server {server} cannot leave: {reason}"));
        }
        Ok(())
    }

    /// Why the roster cannot serve every request, if it cannot.
    fn without_members(&self) -> Option<String> {
        if !self.standing.contains(&Standing::Member) {
            return Some("it is the last member".into());
        }
        let (class, (first, last)) = self
            .class_pools
            .iter()
            .enumerate()
            .find(|(_, &(first, last))| (first..=last).all(|s| !self.is_member(s as usize)))?;
        Some(format!("class {class}'s pool, servers {first} to {last}, would have none"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_holds_its_servers_and_those_its_schedule_adds() {
        let mut scenario = crate::scenario::Scenario { servers: 10, ..Default::default() };
        assert_eq!(scenario.most_servers(), 10);
        scenario.membership = parse("10s:add,20s:remove:3,30s:add,40s:restore:3").unwrap();
        assert_eq!(
            scenario.most_servers(),
            12,
            "a removed server keeps its place; a restored one is no new one"
        );
    }

    #[test]
    fn schedules_read_back_and_refuse_what_is_not_one() {
        let changes = parse(" 10s:add, 20s:remove:3,30.5s:crash:5 , 40s:restore:5").unwrap();
        assert_eq!(
            changes.iter().map(|c| (c.at_s, c.change)).collect::<Vec<_>>(),
            [
                (10.0, Change::Add),
                (20.0, Change::Remove(3)),
                (30.5, Change::Crash(5)),
                (40.0, Change::Restore(5))
            ]
        );
        assert_eq!(text(&changes), "10s:add,20s:remove:3,30.5s:crash:5,40s:restore:5");
        assert_eq!(parse(&text(&changes)), Ok(changes));
        assert_eq!(parse("none"), Ok(Vec::new()));
        for bad in [
            "",
            "10:add",
            "10s",
            "10s:add:3",
            "10s:remove",
            "10s:remove:x",
            "-1s:add",
            "10s:grow",
            "10s:crash:3:4",
            "1s:add,",
            "90000s:add",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_roster_refuses_what_cannot_happen_and_is_left_as_it_was() {
        let mut roster = Roster::new(3, &[]);
        roster.apply(Change::Add).unwrap();
        roster.apply(Change::Remove(1)).unwrap();
        roster.apply(Change::Crash(2)).unwrap();
        assert_eq!(roster.members(), [0, 3]);
        assert!(roster.apply(Change::Remove(4)).unwrap_err().contains("numbered 0 to 3"));
        assert!(roster.apply(Change::Crash(1)).unwrap_err().contains("removed already"));
        assert!(roster.apply(Change::Remove(2)).unwrap_err().contains("crashed already"));
        assert!(roster.apply(Change::Restore(0)).unwrap_err().contains("member already"));
        roster.apply(Change::Remove(0)).unwrap();
        assert!(roster.apply(Change::Crash(3)).unwrap_err().contains("last member"));
        assert_eq!(roster.members(), [3]);
        roster.apply(Change::Restore(2)).unwrap();
        assert_eq!((roster.members(), roster.standing(1)), (vec![2, 3], Standing::Removed));
        let mut pools = Roster::new(4, &[(0, 1), (2, 3)]);
        pools.apply(Change::Remove(0)).unwrap();
        assert!(pools.apply(Change::Crash(1)).unwrap_err().contains("class 0's pool, servers 0 to 1"));
        assert_eq!(pools.members(), [1, 2, 3]);
    }
}
