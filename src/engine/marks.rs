//! What a server does to the requests that reach it besides serving them,
//! as a feature marks it (failures, `feature/failures.rs`): refuse
//! connections, or answer a share of them with an error after a short
//! time. Kept apart from the servers, whose cache line has no byte to
//! spare, with one flag for any mark at all, so that arrivals and service
//! starts read one bool while no server is marked.

use crate::time::Time;

/// How a marked server treats the requests that reach it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Mark {
    #[default]
    Serves,
    /// It refuses connections: a request is answered at once with an error.
    Refuses,
    /// It answers a `share` of the requests it serves with an error,
    /// `after` their service starts.
    FailsFast { share: f64, after: Time },
}

#[derive(Default)]
pub struct Marks {
    marks: Vec<Mark>,
    any: bool,
}

impl Marks {
    #[inline]
    pub fn any(&self) -> bool {
        self.any
    }

    #[inline]
    pub fn of(&self, server: usize) -> Mark {
        self.marks.get(server).copied().unwrap_or_default()
    }

    /// Marks `server`; returns its mark before.
    pub fn set(&mut self, server: usize, mark: Mark) -> Mark {
        if self.marks.len() <= server {
            self.marks.resize(server + 1, Mark::Serves);
        }
        let before = std::mem::replace(&mut self.marks[server], mark);
        self.any = self.marks.iter().any(|&m| m != Mark::Serves);
        before
    }
}
