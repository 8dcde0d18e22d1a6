//! How long a server's queue makes a newcomer wait, and which of its
//! queued requests will wait past the queue timeout: what a queue's length
//! alone does not say once servers run at different speeds. In chapter 3
//! the server slowed to a quarter of its speed had the shortest queue
//! (17.6 against the others' 44.1) and bounced the most: a reader saw the
//! surprise in the picture but not why (reader 12). At a quarter of the
//! speed 18 queued wait as long as 72 at full speed, past the 100 ms
//! timeout: the picture draws the requests queued past the place the
//! timeout falls in each queue in the bounce's colour.
//!
//! A queue is read at the mean: its server takes `slots × speed` requests
//! into its slots each mean service time (`service_mean_ms` at speed 1),
//! so `queued` requests take `queued × mean ÷ slots ÷ speed` to clear.

use crate::engine::ServerView;
use crate::Snapshot;

/// How long (ms) `queued` requests take to clear from `server`'s queue,
/// each taking `service_mean_ms` at speed 1; `None` for a server with no
/// slot to take them (crashed) or no speed.
pub fn clearing_ms(queued: f64, server: &ServerView, service_mean_ms: f64) -> Option<f64> {
    let rate = f64::from(server.slots) * server.speed;
    (rate > 0.0).then(|| queued * service_mean_ms / rate)
}

/// How many of `server`'s queued requests it takes into its slots within
/// `timeout_ms`, at the mean: those queued behind them wait past the
/// timeout. `None` as [`clearing_ms`].
pub fn served_within(timeout_ms: f64, server: &ServerView, service_mean_ms: f64) -> Option<f64> {
    let rate = f64::from(server.slots) * server.speed;
    (rate > 0.0 && service_mean_ms > 0.0).then(|| timeout_ms * rate / service_mean_ms)
}

/// For each row of `snapshot`, the place in its queue (requests from its
/// head) past which requests wait longer than the queue timeout, which the
/// picture marks: only where queues time out and some server runs slower
/// than speed 1 (at one speed everywhere a queue's length reads its wait
/// as it stands). A row whose server has no slot has none.
pub fn timeout_places(snapshot: &Snapshot) -> Option<Vec<Option<f64>>> {
    let timeout_ms = snapshot.queue_timeout_ms?;
    let servers = &snapshot.servers;
    servers.iter().any(|server| server.speed < 1.0).then(|| {
        servers.iter().map(|server| served_within(timeout_ms, server, snapshot.service_mean_ms)).collect()
    })
}

/// How many of `queued` requests stand past `place` (see
/// [`timeout_places`]): the first whole requests within it are served in
/// time.
pub fn past_timeout(queued: u32, place: f64) -> u32 {
    queued.saturating_sub(place.floor().max(0.0) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Simulation;

    fn server(slots: u32, speed: f64, queued: u32) -> ServerView {
        ServerView { busy: slots, queued, slots, speed, ..ServerView::default() }
    }

    #[test]
    fn a_quarter_speed_queue_of_18_waits_as_long_as_72_at_full_speed() {
        // Chapter 3: ten slots, 20 ms a request at speed 1.
        let slowed = clearing_ms(18.0, &server(10, 0.25, 18), 20.0).unwrap();
        let full = clearing_ms(72.0, &server(10, 1.0, 72), 20.0).unwrap();
        assert!((slowed - 144.0).abs() < 1e-9 && (full - 144.0).abs() < 1e-9, "{slowed} {full}");
        // The others' mean queue, 44.1, clears within the 100 ms timeout.
        assert!((clearing_ms(44.1, &server(10, 1.0, 44), 20.0).unwrap() - 88.2).abs() < 1e-9);
        assert_eq!(clearing_ms(3.0, &server(0, 1.0, 3), 20.0), None, "a crashed server takes none");
    }

    #[test]
    fn in_the_timeout_a_quarter_speed_server_takes_a_quarter_as_many() {
        assert_eq!(served_within(100.0, &server(10, 1.0, 0), 20.0), Some(50.0));
        assert_eq!(served_within(100.0, &server(10, 0.25, 0), 20.0), Some(12.5));
        assert_eq!(served_within(100.0, &server(1, 1.0, 0), 40.0), Some(2.5));
        assert_eq!(past_timeout(18, 12.5), 6, "the first 12 are served in time");
        assert_eq!(past_timeout(44, 50.0), 0);
        assert_eq!(past_timeout(3, 3.0), 0);
    }

    fn chapter_3(failures: &str) -> Snapshot {
        let link = format!("warmup_s=10&policy=random&load=0.95{failures}");
        let parsed = crate::ui::hash::parse(&link, crate::ui::options::Kind::Embed);
        assert!(parsed.notices.is_empty(), "{:?}", parsed.notices);
        let mut sim = Simulation::new(&parsed.params.scenario).unwrap();
        sim.advance_to(crate::Time::from_secs(25.0), u64::MAX);
        sim.snapshot(0)
    }

    /// Read from the engine's state, not a constant: chapter 3's timeout,
    /// service time and speeds; and nothing marked until a server is
    /// slowed, nor where queues never time out.
    #[test]
    fn chapter_3s_rows_mark_the_timeout_once_a_server_is_slowed() {
        assert_eq!(timeout_places(&chapter_3("")), None);
        assert_eq!(timeout_places(&chapter_3("&queue_timeout_ms=none&failures=12s:slow:4:x=0.25")), None);
        let snapshot = chapter_3("&failures=12s:slow:4:x=0.25");
        let places = timeout_places(&snapshot).unwrap();
        assert_eq!(places[4], Some(12.5));
        assert!(places.iter().enumerate().all(|(i, p)| i == 4 || *p == Some(50.0)), "{places:?}");
        let longer = chapter_3("&queue_timeout_ms=200&failures=12s:slow:4:x=0.25");
        assert_eq!(timeout_places(&longer).unwrap()[4], Some(25.0));
    }

    /// Chapter 3's point, on the picture: over five seeds, 13 s after the
    /// slowing the slowed server has the shorter queue but more of it past
    /// the timeout than any full-speed server has on average.
    #[test]
    fn chapter_3s_slowed_queue_is_shorter_and_further_past_its_timeout() {
        for seed in 1..=5 {
            let link = "warmup_s=10&policy=random&load=0.95&failures=12s:slow:4:x=0.25";
            let parsed = crate::ui::hash::parse(link, crate::ui::options::Kind::Embed);
            let mut scenario = parsed.params.scenario.clone();
            scenario.seed = seed;
            let mut sim = Simulation::new(&scenario).unwrap();
            let (mut slowed, mut others, mut samples) = (0.0, 0.0, 0.0);
            for tenth in 0..30 {
                sim.advance_to(crate::Time::from_secs(22.0 + f64::from(tenth) * 0.1), u64::MAX);
                let snapshot = sim.snapshot(0);
                let places = timeout_places(&snapshot).unwrap();
                let past = |i: usize| f64::from(past_timeout(snapshot.servers[i].queued, places[i].unwrap()));
                slowed += past(4);
                others += (0..10).filter(|&i| i != 4).map(past).sum::<f64>() / 9.0;
                samples += 1.0;
            }
            let (slowed, others) = (slowed / samples, others / samples);
            assert!(slowed > others + 1.0, "seed {seed}: {slowed:.1} past against {others:.1}");
        }
    }
}
