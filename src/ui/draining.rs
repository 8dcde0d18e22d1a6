//! What a view says after a reader gives a slowed server back its speed:
//! that it is back at full speed and that its queue drains, with the
//! queue's length, until it has. A reader who clicked chapter 1's server
//! again saw its "¼ speed" go while its queue of 112 kept growing for
//! seconds, and read it as "the click did not work".

use crate::format::grouped;

/// A server given back its speed, whose queue has not yet drained.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Draining {
    pub server: usize,
    /// When it was given back its speed (simulated s).
    pub since_s: f64,
}

impl Draining {
    /// The sentence while `queued` requests still wait at the server, one
    /// of `servers`; `None` once none do: then it has drained.
    pub fn words(&self, queued: u32, servers: usize) -> Option<String> {
        if queued == 0 {
            return None;
        }
        let name = match servers {
            1 => "The server".to_string(),
            _ => format!("Server {}", self.server),
        };
        let requests = if queued == 1 { "request still waits" } else { "requests still wait" };
        Some(format!(
            "{name} is back at full speed since {} s, and its queue drains: {queued} {requests}.",
            grouped(self.since_s, 1)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_given_back_its_speed_says_so_until_its_queue_has_drained() {
        let draining = Draining { server: 0, since_s: 12.4 };
        assert_eq!(
            draining.words(112, 1).as_deref(),
            Some("The server is back at full speed since 12.4 s, and its queue drains: 112 requests still wait.")
        );
        let of_ten = Draining { server: 4, since_s: 3.0 };
        assert_eq!(
            of_ten.words(1, 10).as_deref(),
            Some("Server 4 is back at full speed since 3.0 s, and its queue drains: 1 request still waits.")
        );
        assert_eq!(draining.words(0, 1), None, "drained");
    }
}
