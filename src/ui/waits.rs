//! How long a server's queue makes a newcomer wait, against the queue
//! timeout: what a queue's length alone does not say once servers run at
//! different speeds. In chapter 3 the server slowed to a quarter of its
//! speed had the shortest queue (17.6 against the others' 44.1) and
//! bounced the most: a reader saw the surprise in the picture but not why
//! (reader 12). At a quarter of the speed 18 queued wait as long as 72 at
//! full speed, past the 100 ms timeout: the picture draws each queue's
//! wait as a line under its row, to one scale with the timeout marked, the
//! part past the timeout in the bounce's colour. In a lane, counts to one scale
//! with the longest queue, 17 and its 12 served in time differed by a
//! sliver.
//!
//! A queue is read at the mean: its server takes `slots × speed` requests
//! into its slots each mean service time (`service_mean_ms` at speed 1),
//! so `queued` requests take `queued × mean ÷ slots ÷ speed` to clear.
//! The picture reads each queue as it stood over the last two seconds
//! (`ServerView::queued_lately`), as the verdict reads them over five: read
//! as it stood in the frame, a full-speed queue's line ran past the slowed
//! one's in one frame of ten, and past the timeout, beside a verdict
//! saying otherwise (reader 18).

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

/// A row's wait past the timeout is drawn this many label heights thick
/// (7.2 px at 12 px labels), at most [`PAST_MOST_PX`], and not at all
/// where a row leaves less than [`PAST_LEAST_PX`] under its queue (a
/// presenter's rows at 1280 × 720): reader 13 found the 3 px line thin
/// and did not read it without the text.
const PAST_EM: f64 = 0.6;
const PAST_MOST_PX: f64 = 9.0;
const PAST_LEAST_PX: f64 = 4.0;
/// The largest queue cell a row draws (CSS px: 0.8 of a 16 px pitch).
const LARGEST_CELL_PX: f64 = 12.8;
/// A picture narrower than this (CSS px) gives its rows the height their
/// waits ask (see [`WaitBand::least_row_h`]).
pub const ROWS_FOR_WAITS_BELOW_PX: f64 = 480.0;

/// Where a row draws its wait, under its queue's cells, its count and its
/// box of slots (CSS px, down from the row's middle): the band's top, and how thick the
/// line is past the timeout; within the timeout it is half as thick, so
/// that the part past the tick stands out by its shape as well as by its
/// colour (for a reader who does not see red, or a projector that washes
/// it out).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WaitBand {
    pub top: f64,
    pub past: f64,
}

impl WaitBand {
    /// The band in a row `row_h` tall whose marks across its middle (its
    /// queue's cells, its box of slots) are `side` high, its labels
    /// `label_px` high; `None` where it leaves the band
    /// too little room. The timeout's tick reaches a pixel past the band
    /// each way, and a pixel is left before the next row.
    pub fn in_row(row_h: f64, side: f64, label_px: f64) -> Option<WaitBand> {
        let top = side.max(label_px) / 2.0 + 2.0;
        let room = row_h / 2.0 - top - 2.0;
        let past = (label_px * PAST_EM).min(PAST_MOST_PX).min(room);
        (past >= PAST_LEAST_PX).then_some(WaitBand { top, past })
    }

    /// The least height (CSS px) of a row that holds a band as thick as
    /// its labels `label_px` ask, under cells as large as any row draws
    /// (12.8 px); asked only of a picture narrower than
    /// [`ROWS_FOR_WAITS_BELOW_PX`] (a phone's, whose 26 px rows held no
    /// band): a presenter's rows stay as tall as its screen allows, and
    /// an embed's frame keeps its controls.
    pub fn least_row_h(label_px: f64, picture_w: f64) -> Option<f64> {
        let top = label_px.max(LARGEST_CELL_PX) / 2.0 + 2.0;
        (picture_w < ROWS_FOR_WAITS_BELOW_PX).then_some(2.0 * (top + 2.0 + label_px * PAST_EM))
    }

    /// How thick the line is within the timeout.
    pub fn within(&self) -> f64 {
        self.past / 2.0
    }

    /// How far below the row's middle the band ends.
    pub fn bottom(&self) -> f64 {
        self.top + self.past
    }
}

/// For each row of `snapshot`, how long its queue takes to clear over the
/// queue timeout (1: a newcomer would wait exactly the timeout), which the
/// picture draws: only where queues time out and some server runs slower
/// than speed 1 (at one speed everywhere a queue's length reads its wait).
/// Rows read against each other read their queues over the last two
/// seconds; a lone server's, nothing to compare it with, as it stands: in
/// chapter 1, played at a tenth of real time, two simulated seconds are
/// twenty of the reader's, and a queue of 23 at a quarter of the speed
/// read 48 ms. A row whose server has no slot has none.
pub fn waits_over_timeout(snapshot: &Snapshot) -> Option<Vec<Option<f64>>> {
    let timeout_ms = snapshot.queue_timeout_ms.filter(|&t| t > 0.0)?;
    let servers = &snapshot.servers;
    let queued = |server: &ServerView| match servers.len() {
        1 => f64::from(server.queued),
        _ => server.queued_lately,
    };
    servers.iter().any(|server| server.speed < 1.0).then(|| {
        servers
            .iter()
            .map(|server| {
                clearing_ms(queued(server), server, snapshot.service_mean_ms).map(|ms| ms / timeout_ms)
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Scenario, Simulation};

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
    }

    /// Chapter 3's rows at 1440 × 900 (47 px, cells 13 px, labels 12 px)
    /// draw the part past the timeout 7.2 px thick, twice the part within;
    /// shorter rows what they hold; a presenter's at 1280 × 720 (labels
    /// 18 px, rows 31 px) nothing, as its rows hold no more.
    #[test]
    fn a_wait_past_the_timeout_is_drawn_thick_where_its_row_has_room() {
        let desktop = WaitBand::in_row(47.0, 13.0, 12.0).unwrap();
        assert_eq!(desktop.top, 8.5);
        assert!((desktop.past - 7.2).abs() < 1e-9 && (desktop.within() - 3.6).abs() < 1e-9, "{desktop:?}");
        assert!(desktop.bottom() + 2.0 <= 47.0 / 2.0, "the band and its tick stay in the row");
        let short = WaitBand::in_row(30.0, 10.0, 12.0).unwrap();
        assert!((short.past - 5.0).abs() < 1e-9, "a shorter row draws what it holds: {short:?}");
        assert!(short.bottom() + 2.0 <= 15.0 + 1e-9);
        assert_eq!(WaitBand::in_row(26.0, 4.0, 12.0), None, "a phone's 26 px row held none");
        assert_eq!(WaitBand::in_row(31.0, 14.0, 18.0), None, "a presenter's row holds no band");
        assert_eq!(WaitBand::in_row(200.0, 16.0, 20.0).unwrap().past, 9.0, "never thicker than 9 px");
        // A phone's picture asks rows that hold the whole band.
        let least = WaitBand::least_row_h(12.0, 366.0).unwrap();
        assert!((least - 35.2).abs() < 1e-9, "{least}");
        assert!((WaitBand::in_row(least, 12.8, 12.0).unwrap().past - 7.2).abs() < 1e-9);
        assert_eq!(WaitBand::least_row_h(12.0, 656.0), None, "a wider picture asks nothing more");
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
    /// service time, slots and speeds; and nothing drawn until a server is
    /// slowed, nor where queues never time out.
    #[test]
    fn chapter_3s_rows_draw_their_waits_once_a_server_is_slowed() {
        assert_eq!(waits_over_timeout(&chapter_3("")), None);
        assert_eq!(waits_over_timeout(&chapter_3("&queue_timeout_ms=none&failures=12s:slow:4:x=0.25")), None);
        for timeout in [100.0, 200.0] {
            let snapshot = chapter_3(&format!("&queue_timeout_ms={timeout}&failures=12s:slow:4:x=0.25"));
            let waits = waits_over_timeout(&snapshot).unwrap();
            for (i, server) in snapshot.servers.iter().enumerate() {
                let speed = if i == 4 { 0.25 } else { 1.0 };
                let expected = server.queued_lately * 20.0 / 10.0 / speed / timeout;
                assert!((waits[i].unwrap() - expected).abs() < 1e-9, "row {i}: {waits:?}");
            }
        }
    }

    /// A lone server's line reads its queue as it stands: chapter 1's,
    /// slowed a moment ago, has no neighbour to be read against, and its
    /// two seconds' mean still holds the queue from before the slowing.
    #[test]
    fn a_lone_servers_wait_reads_its_queue_as_it_stands() {
        let link = "servers=1&policy=random&load=0.9&failures=5s:slow:0:x=0.25";
        let parsed = crate::ui::hash::parse(link, crate::ui::options::Kind::Embed);
        let mut sim = Simulation::new(&parsed.params.scenario).unwrap();
        sim.advance_to(crate::Time::from_secs(5.5), u64::MAX);
        let snapshot = sim.snapshot(0);
        let server = &snapshot.servers[0];
        assert!(f64::from(server.queued) > server.queued_lately + 5.0, "the queue grew: {server:?}");
        let wait = waits_over_timeout(&snapshot).unwrap()[0].unwrap();
        let expected = f64::from(server.queued) * 20.0 / 10.0 / 0.25 / 100.0;
        assert!((wait - expected).abs() < 1e-9, "{wait} against {expected}");
    }

    /// Chapter 3's rows agree with its verdict frame by frame: over five
    /// seeds, each tenth of a second from 3 to 13 s after the slowing, the
    /// slowed row's line never stands shorter than a full-speed row's. Read
    /// as each queue stood in the frame, 50 of these 500 frames had one
    /// longer (reader 18 caught 64 ms beside a neighbour's 118 ms).
    #[test]
    fn chapter_3s_slowed_row_waits_longest_in_every_frame() {
        let link = "warmup_s=10&policy=random&load=0.95&failures=12s:slow:4:x=0.25";
        let parsed = crate::ui::hash::parse(link, crate::ui::options::Kind::Embed);
        let mut shorter = Vec::new();
        for seed in 1..=5 {
            let mut sim = Simulation::new(&Scenario { seed, ..parsed.params.scenario.clone() }).unwrap();
            for tenth in 0..100 {
                sim.advance_to(crate::Time::from_secs(15.0 + f64::from(tenth) * 0.1), u64::MAX);
                let over = waits_over_timeout(&sim.snapshot(0)).unwrap().into_iter().map(Option::unwrap);
                let (slowed, others): (Vec<_>, Vec<_>) = over.enumerate().partition(|&(i, _)| i == 4);
                let longest = others.iter().map(|&(_, wait)| wait).fold(0.0, f64::max);
                if slowed[0].1 < longest {
                    shorter.push((seed, tenth, slowed[0].1, longest));
                }
            }
        }
        assert_eq!(shorter, [], "(seed, tenth, slowed, longest other)");
    }

    /// Chapter 3's point, on the picture: over five seeds, 10 to 13 s after
    /// the slowing, the slowed server's queue is shorter than the others'
    /// mean but its wait longer, past the timeout, theirs within it.
    #[test]
    fn chapter_3s_slowed_queue_is_shorter_and_waits_past_the_timeout() {
        for seed in 1..=5 {
            let link = "warmup_s=10&policy=random&load=0.95&failures=12s:slow:4:x=0.25";
            let parsed = crate::ui::hash::parse(link, crate::ui::options::Kind::Embed);
            let mut scenario = parsed.params.scenario.clone();
            scenario.seed = seed;
            let mut sim = Simulation::new(&scenario).unwrap();
            let (mut queued, mut waits) = ([0.0; 2], [0.0; 2]);
            for tenth in 0..30 {
                sim.advance_to(crate::Time::from_secs(22.0 + f64::from(tenth) * 0.1), u64::MAX);
                let snapshot = sim.snapshot(0);
                let over = waits_over_timeout(&snapshot).unwrap();
                let others = (0..10).filter(|&i| i != 4);
                queued[0] += f64::from(snapshot.servers[4].queued);
                queued[1] += others.clone().map(|i| f64::from(snapshot.servers[i].queued)).sum::<f64>() / 9.0;
                waits[0] += over[4].unwrap();
                waits[1] += others.map(|i| over[i].unwrap()).sum::<f64>() / 9.0;
            }
            let [queued, waits] = [queued, waits].map(|[slowed, others]| [slowed / 30.0, others / 30.0]);
            assert!(queued[0] < queued[1], "seed {seed}: queues {queued:?}");
            assert!(waits[0] > 1.0 && waits[1] < 1.0, "seed {seed}: waits over the timeout {waits:?}");
        }
    }
}
