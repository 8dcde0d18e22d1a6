//! A probe on an ejected server's return (`eject_probe`): NGINX lets one
//! request through to a peer whose `fail_timeout` is over and takes it out
//! again at once if that request fails (`ngx_http_upstream_round_robin.c`:
//! the peer is skipped while `now - checked <= fail_timeout`, and choosing
//! it sets `checked`); Linkerd's failure accrual puts an endpoint whose
//! back-off is over on probation for one request. Here the chooser
//! readmits the server when its ejection ends, as without a probe; the
//! first request it sends there is the probe, and the server is held out
//! again while it is answered: a success readmits it (and forgets its
//! ejections, as NGINX's `fails` and Linkerd's back-off start afresh), a
//! failure turns the hold into its next ejection. A probe never answered
//! (sent back) ends with the hold, which lasts that next ejection's length.

/// Where a returning server's probe stands at its chooser.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// Readmitted: the next request sent there is the probe.
    Due,
    /// The probe, at this place, is about to leave.
    Sending(u32),
    /// The probe left; the chooser was asked to hold the server out.
    Sent,
    /// The server is held out until the probe is answered.
    Held,
}

/// The servers each chooser readmitted after an ejection and has not yet
/// heard a probe answered by: usually none.
#[derive(Default)]
pub(super) struct Probes {
    returning: Vec<(usize, u32, Stage)>,
}

impl Probes {
    fn find(&self, chooser: usize, server: u32) -> Option<usize> {
        self.returning.iter().position(|&(c, s, _)| c == chooser && s == server)
    }

    /// `chooser` readmitted `server` after an ejection: its next request
    /// there is a probe.
    pub fn returned(&mut self, chooser: usize, server: u32) {
        match self.find(chooser, server) {
            Some(i) => self.returning[i].2 = Stage::Due,
            None => self.returning.push((chooser, server, Stage::Due)),
        }
    }

    /// Place `place`'s request is about to leave `chooser` for `server`.
    pub fn sending(&mut self, place: u32, chooser: usize, server: u32) {
        if let Some(i) = self.find(chooser, server).filter(|&i| self.returning[i].2 == Stage::Due) {
            self.returning[i].2 = Stage::Sending(place);
        }
    }

    /// Place `place`'s request left: if it is a probe, its chooser and
    /// server, which the chooser is to hold out while it is answered.
    pub fn sent(&mut self, place: u32) -> Option<(usize, u32)> {
        let entry = self.returning.iter_mut().find(|(_, _, stage)| *stage == Stage::Sending(place))?;
        entry.2 = Stage::Sent;
        Some((entry.0, entry.1))
    }

    /// Whether `chooser`'s ejection of `server` is the hold of a probe
    /// just sent (which then counts as no ejection until the probe fails).
    pub fn holds(&mut self, chooser: usize, server: u32) -> bool {
        match self.find(chooser, server).filter(|&i| self.returning[i].2 == Stage::Sent) {
            Some(i) => {
                self.returning[i].2 = Stage::Held;
                true
            }
            None => false,
        }
    }

    /// `chooser` heard from `server`: if that answers a probe, which it
    /// held the server out for, whether the probe succeeded.
    pub fn answered(&mut self, chooser: usize, server: u32, ok: bool) -> Option<bool> {
        let i = self.find(chooser, server)?;
        let stage = self.returning[i].2;
        if matches!(stage, Stage::Due | Stage::Sending(_)) {
            return None;
        }
        self.returning.swap_remove(i);
        (stage == Stage::Held).then_some(ok)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_first_request_after_the_return_is_a_probe_and_its_answer_ends_it() {
        let mut probes = Probes::default();
        probes.returned(0, 3);
        assert_eq!(probes.answered(0, 3, false), None, "an answer to an older request");
        probes.sending(7, 1, 3);
        assert_eq!(probes.sent(7), None, "another chooser's request");
        probes.sending(8, 0, 3);
        probes.sending(9, 0, 3);
        assert_eq!(probes.sent(9), None, "only the first request is the probe");
        assert_eq!(probes.sent(8), Some((0, 3)));
        assert!(probes.holds(0, 3));
        assert!(!probes.holds(0, 3), "one hold per probe");
        assert_eq!(probes.answered(0, 3, false), Some(false));
        assert_eq!(probes.answered(0, 3, true), None, "the probe is over");
    }

    #[test]
    fn a_probe_whose_hold_was_refused_ends_without_a_verdict() {
        let mut probes = Probes::default();
        probes.returned(2, 1);
        probes.sending(5, 2, 1);
        assert_eq!(probes.sent(5), Some((2, 1)));
        assert_eq!(probes.answered(2, 1, true), None);
        assert!(probes.returning.is_empty());
    }
}
