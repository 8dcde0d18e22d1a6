//! Where a followed client's request stands in its server's row, so that
//! the reader sees it go in, wait its turn, take a slot and come out:
//! drawn at the row's entrance, the first trip of chapter 1 stopped at the
//! word "server", its slot 300 px to the right, and the request seemed to
//! vanish there (reader 16).
//!
//! A row draws its busy slots as a count, filled from the first, so which
//! busy slot holds a request is the picture's choice: the `k`-th of the
//! client's requests in service there stands on the `k`-th slot, which
//! is drawn busy as long as it is in service, and it comes out from there.
//! A queued request stands on its own place in the queue, counted from
//! the box (see `Simulation::queue_places`).

/// A cell of a server's row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stand {
    /// A slot, counted from the first.
    Slot(usize),
    /// A queue's cell, counted from the box: the lane's last where the
    /// place lies beyond the lane (the queue is cut there).
    Queued(usize),
}

/// Where the `k`-th of a client's requests in service at a server of
/// `slots` stands (and comes out from).
pub fn in_service(k: usize, slots: u32) -> Stand {
    Stand::Slot(k.min((slots as usize).saturating_sub(1)))
}

/// Where a request waiting with `ahead` before it stands, on a lane of
/// `cells`: `None` where the lane has no cell.
pub fn waiting(ahead: u32, cells: usize) -> Option<Stand> {
    cells.checked_sub(1).map(|last| Stand::Queued((ahead as usize).min(last)))
}

/// Where a request on its way to a server heads, as its row stands now
/// (`busy` of `slots`, `queued` waiting): a slot while one is free (the
/// one it will stand on once in service), else the queue's end, where it
/// will wait.
pub fn heading(busy: u32, slots: u32, queued: u32, cells: usize) -> Option<Stand> {
    match busy < slots {
        true => Some(in_service(0, slots)),
        false => waiting(queued, cells),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_heads_for_a_slot_while_one_is_free_else_for_the_queues_end() {
        assert_eq!(heading(0, 10, 0, 24), Some(Stand::Slot(0)), "chapter 1's first trip");
        assert_eq!(heading(9, 10, 0, 24), Some(Stand::Slot(0)));
        assert_eq!(heading(10, 10, 3, 24), Some(Stand::Queued(3)), "behind the three waiting");
        assert_eq!(heading(10, 10, 40, 24), Some(Stand::Queued(23)), "at the cut");
        assert_eq!(heading(10, 10, 3, 0), None, "a row with no lane");
    }

    #[test]
    fn in_service_a_request_stands_on_a_slot_of_its_server() {
        assert_eq!(in_service(0, 10), Stand::Slot(0));
        assert_eq!(in_service(2, 10), Stand::Slot(2), "a client's third request in service there");
        assert_eq!(in_service(4, 2), Stand::Slot(1), "never past the last slot");
        assert_eq!(waiting(0, 6), Some(Stand::Queued(0)), "first in line, next to the box");
        assert_eq!(waiting(30, 6), Some(Stand::Queued(5)));
    }
}
