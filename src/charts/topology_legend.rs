//! Which marks the topology can draw for a scenario, so that its legend
//! lists those and no others: a reader of a chapter about random routing
//! should not have to skip past a server crash, a key moving and a
//! handshake that never happen there.
//!
//! Each answer follows the engine: what makes the request, the server or
//! the decision the mark stands for occur at all. The browser asks again
//! whenever the settings change, live failures and membership changes
//! included (the engine records those into the scenario's schedules).

use crate::scenario::failures::Failure;
use crate::scenario::{Change, Demand, PolicyKind, Scenario};

/// A mark of the topology, as its legend names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    Request,
    /// A request sent again (a ring).
    Retry,
    /// A request sent back to its chooser (a cross).
    Bounce,
    Response,
    /// A request waiting for its connection's handshake.
    Handshake,
    BusySlot,
    FreeSlot,
    /// A slowed server's busy slot (hatched).
    SlowedSlot,
    Queued,
    /// A queue's wait at its server's speed against the queue timeout
    /// (see `ui::waits`).
    Wait,
    ClientWaiting,
    /// Once a spike is over, each server's total of completed requests, a
    /// bar in the responses' green (see `web::topology::totals`): chapter
    /// 2's legend named no green bar (reader 15).
    Completed,
    /// A policy's decision: the servers it compared and the one it took.
    Choice,
    /// A server crashed, down, removed, draining, failing or out of a pool.
    ServerOut,
    /// Keys moving to their new server after a membership change.
    KeyMoves,
    /// The compact view's shades of load.
    Shades,
    /// A client's copy of a server's load, beside the row and as a needle
    /// through it, under a policy that learns load.
    Heard,
}

impl Mark {
    /// Every mark, in the legend's order.
    pub const ALL: [Mark; 17] = [
        Mark::Request,
        Mark::Retry,
        Mark::Bounce,
        Mark::Response,
        Mark::Handshake,
        Mark::BusySlot,
        Mark::FreeSlot,
        Mark::SlowedSlot,
        Mark::Queued,
        Mark::Wait,
        Mark::ClientWaiting,
        Mark::Completed,
        Mark::Choice,
        Mark::ServerOut,
        Mark::KeyMoves,
        Mark::Shades,
        Mark::Heard,
    ];

    /// Whether the topology can draw this mark for `scenario`, in its
    /// compact view (many servers as shaded cells) or its detailed one.
    pub fn drawn(self, scenario: &Scenario, compact: bool) -> bool {
        let s = scenario;
        match self {
            Mark::Request | Mark::Response | Mark::Queued | Mark::ClientWaiting => true,
            // The compact view shades cells by busy slots instead.
            Mark::BusySlot | Mark::FreeSlot => !compact,
            Mark::Shades => compact,
            Mark::SlowedSlot => !compact && slowed(s),
            // Drawn only where a server is slowed (at one speed a queue's
            // length reads its wait).
            Mark::Wait => !compact && slowed(s) && s.queue_timeout_ms.is_some(),
            Mark::Retry => retries(s),
            Mark::Bounce => bounces(s),
            // The first request over a cold connection waits for it.
            Mark::Handshake => s.handshake_round_trips > 0 && s.client_delay_ms > 0.0,
            Mark::Choice => draws_decisions(s),
            // Slow servers are told by their word, not by this mark; a
            // server leaves a pool (ejected, failing a health check) only
            // after errors, which only failures give; a server added is
            // simply one more.
            Mark::ServerOut => errors(s) || s.membership.iter().any(|due| !matches!(due.change, Change::Add)),
            Mark::KeyMoves => s.policy.reads_keys() && !s.membership.is_empty(),
            // The column of copies and their needles stand beside rows.
            Mark::Heard => !compact && s.policy.learns_load(),
            Mark::Completed => !compact && s.demand == Demand::Spike,
        }
    }

    /// Every mark the topology can draw for `scenario`, in the legend's order.
    pub fn drawn_for(scenario: &Scenario, compact: bool) -> Vec<Mark> {
        Mark::ALL.into_iter().filter(|mark| mark.drawn(scenario, compact)).collect()
    }
}

/// Whether servers answer with errors: a failure that refuses connections
/// or fails requests fast (a slow one only slows them).
fn errors(s: &Scenario) -> bool {
    s.failures.iter().any(|due| {
        matches!(due.failure, Some(Failure::Down | Failure::FastFail { .. } | Failure::Flap { .. }))
    })
}

/// Whether a server is slowed, by a link's `slow` failure or a click
/// (which the engine records among the failures).
fn slowed(s: &Scenario) -> bool {
    s.failures.iter().any(|due| matches!(due.failure, Some(Failure::Slow { .. })))
}

/// Whether requests are sent back: by a queue timeout, or by a crash.
fn bounces(s: &Scenario) -> bool {
    s.queue_timeout_ms.is_some() || s.membership.iter().any(|due| matches!(due.change, Change::Crash(_)))
}

/// Whether a request is ever sent again, drawn as a retry. The engine
/// counts a retry after a queue timeout or an error, within the retry
/// budget (a crash's send-back is not one); FoundationDB's balancers send
/// attempts of their own: the load balancer a second request after a
/// timeout always, the basic one the next alternative after a send-back
/// or an error.
fn retries(s: &Scenario) -> bool {
    if s.policy == PolicyKind::FDB_LOAD_BALANCE {
        true
    } else if s.policy == PolicyKind::FDB_BASIC {
        bounces(s) || errors(s)
    } else {
        s.retry_budget > 0 && (s.queue_timeout_ms.is_some() || errors(s))
    }
}

/// Whether the policy draws its decisions: one that compares a sample of
/// servers (with at least two to choose from), or places requests by key.
pub fn draws_decisions(s: &Scenario) -> bool {
    let pool = s.subset_size.unwrap_or(s.servers).min(s.servers);
    let two = pool >= 2 || !s.membership.is_empty();
    // `choices` is at least 2.
    (s.policy.compares_a_sample() && two) || s.policy.reads_keys()
}

/// Whether the legend's swatch for a decision is solid: a key's placement
/// with no bound on load draws one solid line to the key's server, never a
/// dashed one (chapter 13's swatch was the comparison's dashed line).
pub fn choice_solid(s: &Scenario) -> bool {
    s.policy.reads_keys() && !s.policy.places_by("bounded_load_c")
}

/// What the legend says of a decision drawn for `scenario`: a comparison,
/// with what its chooser saw as the row writes it ("saw 3 queued": a badge
/// "saw 13", busy plus queued, matched nothing drawn), and that a decision
/// held past its moment is drawn faint, unringed and without its figures
/// (see the view's decision badges, `ui/marks`); under a policy that learns
/// load, the copies compared as their column writes them ("saw 13"), and
/// that a past choice is faint; "stale", or "?" where there is no room for
/// the word, where such a policy found its copies too old to compare (the
/// legend explained only "?" where the desktop picture wrote "stale"); or,
/// under a placement scheme, a key's server, which compares nothing:
/// chapter 13's legend said "servers compared" and "what the chooser saw"
/// of modulo.
pub fn choice_words(s: &Scenario) -> &'static str {
    if s.policy.places_by("bounded_load_c") {
        "a key's placement: the server it went to (solid, thick), its place passed over as full, over the bound on load (thin grey dashes)"
    } else if s.policy.reads_keys() {
        "a key's placement: the line to its server, which the key alone decides"
    } else if s.policy.learns_load() {
        "a choice: compared (thin grey dashes), taken (solid, thick), the copies compared (\"saw 13\"), once past fading and saying \"then\" (\"saw 13 then\"); \"stale\" (or \"?\"): copies too old, sent at random"
    } else if s.policy.reads_board() {
        "a choice: servers compared (thin grey dashes), the one taken (solid, thick), what the chooser saw as the row writes it (\"saw 8/10\", \"saw 3 queued\"); once the rows move on, unringed and fading, its badge saying \"then\" (\"saw 3 queued then\", short \"3 then\")"
    } else {
        "a choice: servers compared (thin grey dashes), the one taken (solid, thick), what the chooser saw, faint and unringed once the rows move on"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenario(settings: &[(&str, &str)]) -> Scenario {
        let mut scenario = Scenario::default();
        for (key, value) in settings {
            scenario.set(key, value).unwrap_or_else(|e| panic!("{key}={value}: {e}"));
        }
        scenario
    }

    fn drawn(settings: &[(&str, &str)]) -> Vec<Mark> {
        Mark::drawn_for(&scenario(settings), false)
    }

    /// Chapter 2's spike ends on each server's completed requests, green
    /// bars its legend did not name (reader 15); a run that never ends
    /// draws none.
    #[test]
    fn a_spike_names_its_completed_requests() {
        assert!(drawn(&[("demand", "spike")]).contains(&Mark::Completed));
        assert!(!drawn(&[]).contains(&Mark::Completed));
        assert!(!Mark::drawn_for(&scenario(&[("demand", "spike")]), true).contains(&Mark::Completed));
    }

    #[test]
    fn the_default_scenario_retries_after_bounces_and_shakes_hands() {
        use Mark::*;
        assert_eq!(
            drawn(&[]),
            [Request, Retry, Bounce, Response, Handshake, BusySlot, FreeSlot, Queued, ClientWaiting]
        );
    }

    #[test]
    fn no_queue_timeout_no_bounce_and_no_retry_without_errors() {
        let marks = drawn(&[("queue_timeout_ms", "none")]);
        assert!(!marks.contains(&Mark::Bounce) && !marks.contains(&Mark::Retry), "{marks:?}");
        // Errors are retried, though nothing bounces.
        let marks = drawn(&[("queue_timeout_ms", "none"), ("failures", "5s:down:1")]);
        assert!(!marks.contains(&Mark::Bounce) && marks.contains(&Mark::Retry), "{marks:?}");
        // A crash sends requests back without a queue timeout.
        let marks = drawn(&[("queue_timeout_ms", "none"), ("membership", "5s:crash:1")]);
        assert!(marks.contains(&Mark::Bounce) && !marks.contains(&Mark::Retry), "{marks:?}");
    }

    #[test]
    fn a_retry_budget_of_nothing_draws_no_retry() {
        assert!(!drawn(&[("retry_budget", "0"), ("failures", "5s:down:1")]).contains(&Mark::Retry));
        // FoundationDB's balancers send attempts of their own.
        assert!(drawn(&[("retry_budget", "0"), ("policy", "fdb-load-balance")]).contains(&Mark::Retry));
        let basic = [("retry_budget", "0"), ("policy", "fdb-basic"), ("queue_timeout_ms", "none")];
        assert!(!drawn(&basic).contains(&Mark::Retry));
    }

    /// The picture draws a choice's servers passed over as thin grey
    /// dashes and the one taken solid, 2.5 times as thick, in the ink: the
    /// legend says so in those words, for every policy that compares.
    #[test]
    fn a_choice_is_named_by_how_it_is_drawn_grey_dashes_and_a_thick_solid_line() {
        for policy in ["power-of-d", "p2c-piggyback", "bounded-load", "least-request-with-replacement"] {
            let words = choice_words(&scenario(&[("policy", policy)]));
            assert!(
                words.contains("(thin grey dashes)") && words.contains("(solid, thick)"),
                "{policy}: {words}"
            );
        }
    }

    #[test]
    fn no_handshake_without_round_trips_or_a_network_delay() {
        assert!(!drawn(&[("handshake_round_trips", "0")]).contains(&Mark::Handshake));
        assert!(!drawn(&[("client_delay_ms", "0")]).contains(&Mark::Handshake));
    }

    #[test]
    fn servers_out_only_with_failures_that_give_errors_or_servers_leaving() {
        assert!(!drawn(&[]).contains(&Mark::ServerOut));
        assert!(!drawn(&[("failures", "5s:slow:1:x=0.25")]).contains(&Mark::ServerOut));
        for (key, value) in [
            ("failures", "5s:down:1"),
            ("failures", "5s:fast-fail:1:p=0.5"),
            ("failures", "5s:flap:1:period=1s"),
            ("membership", "5s:remove:1"),
            ("membership", "5s:crash:1"),
        ] {
            assert!(drawn(&[(key, value)]).contains(&Mark::ServerOut), "{key}={value}");
        }
        assert!(!drawn(&[("membership", "5s:add")]).contains(&Mark::ServerOut));
    }

    #[test]
    fn a_slowed_servers_hatched_slots_are_listed_only_where_one_is_slowed() {
        assert!(!drawn(&[]).contains(&Mark::SlowedSlot));
        assert!(drawn(&[("failures", "5s:slow:1:x=0.25")]).contains(&Mark::SlowedSlot));
        assert!(!drawn(&[]).contains(&Mark::Wait));
        assert!(drawn(&[("failures", "5s:slow:1:x=0.25")]).contains(&Mark::Wait));
        let no_timeout = [("failures", "5s:slow:1:x=0.25"), ("queue_timeout_ms", "none")];
        assert!(!drawn(&no_timeout).contains(&Mark::Wait), "nothing waits past no timeout");
        let compact = Mark::drawn_for(&scenario(&[("failures", "5s:slow:1:x=0.25")]), true);
        assert!(!compact.contains(&Mark::SlowedSlot), "the compact view shades cells instead");
    }

    #[test]
    fn keys_move_only_under_a_placement_scheme_whose_members_change() {
        assert!(!drawn(&[("policy", "ring")]).contains(&Mark::KeyMoves));
        assert!(drawn(&[("policy", "ring"), ("membership", "10s:add")]).contains(&Mark::KeyMoves));
        assert!(!drawn(&[("policy", "random"), ("membership", "10s:add")]).contains(&Mark::KeyMoves));
    }

    #[test]
    fn choices_only_under_a_policy_that_draws_its_decisions() {
        for policy in
            ["power-of-d", "least-request", "p2c-piggyback", "peak-ewma", "ring", "modulo", "maglev"]
        {
            assert!(drawn(&[("policy", policy)]).contains(&Mark::Choice), "{policy}");
        }
        for policy in ["random", "round-robin", "least-connections", "shortest-queue", "fdb-basic"] {
            assert!(!drawn(&[("policy", policy)]).contains(&Mark::Choice), "{policy}");
        }
        // One server is no comparison.
        assert!(!drawn(&[("policy", "power-of-d"), ("servers", "1")]).contains(&Mark::Choice));
    }

    #[test]
    fn a_keys_placement_is_not_called_a_comparison_and_a_stale_one_is_explained_where_it_can_happen() {
        let words = |policy| choice_words(&scenario(&[("policy", policy)]));
        for policy in ["modulo", "ring", "maglev", "table", "ranges"] {
            assert!(!words(policy).contains("compared") && !words(policy).contains("saw"), "{policy}");
        }
        assert!(words("bounded-load").contains("full"));
        assert!(words("p2c-piggyback").contains("\"stale\" (or \"?\"): copies too old"));
        // Learned copies are written whole, as their column writes them;
        // a past choice, beside rows (or copies) that moved on, keeps what
        // it saw and says "then", one notation in both chapters.
        assert!(words("p2c-piggyback").contains("(\"saw 13\"), once past fading and saying \"then\""));
        assert!(words("power-of-d").contains("(\"saw 3 queued then\", short \"3 then\")"));
        for policy in ["power-of-d", "least-request", "peak-ewma"] {
            assert!(
                words(policy).contains("what the chooser saw") && !words(policy).contains('?'),
                "{policy}"
            );
        }
        // A board's load is written as the rows write it; a chooser's own
        // requests in flight or a cost have no row to match.
        assert!(words("power-of-d").contains("\"saw 3 queued\""));
        for policy in ["least-request", "peak-ewma"] {
            assert!(!words(policy).contains("queued"), "{policy}");
        }
    }

    #[test]
    fn a_placement_without_a_bound_has_a_solid_swatch_and_only_learned_load_a_needle() {
        for policy in ["modulo", "ring", "maglev"] {
            assert!(choice_solid(&scenario(&[("policy", policy)])), "{policy}");
        }
        for policy in ["bounded-load", "power-of-d", "p2c-piggyback"] {
            assert!(!choice_solid(&scenario(&[("policy", policy)])), "{policy}");
        }
        assert!(drawn(&[("policy", "p2c-piggyback")]).contains(&Mark::Heard));
        assert!(!drawn(&[("policy", "power-of-d")]).contains(&Mark::Heard));
        assert!(!Mark::drawn_for(&scenario(&[("policy", "p2c-piggyback")]), true).contains(&Mark::Heard));
    }

    #[test]
    fn shades_only_in_the_compact_view_which_draws_no_slots() {
        let s = Scenario::default();
        assert!(!Mark::drawn_for(&s, false).contains(&Mark::Shades));
        let compact = Mark::drawn_for(&s, true);
        assert!(compact.contains(&Mark::Shades), "{compact:?}");
        assert!(!compact.contains(&Mark::BusySlot) && !compact.contains(&Mark::FreeSlot));
    }
}
