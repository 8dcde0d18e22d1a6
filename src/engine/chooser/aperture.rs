//! Finagle's deterministic aperture (finagle-core's
//! `loadbalancer/aperture`: `DeterministicAperture.dApertureWidth`,
//! `WeightedAperture.adjustWeights`), Twitter's default balancer: the
//! choosers sit on one ring of circumference 1, chooser i of N at i/N,
//! and the servers on another, each an arc as long as its share of the
//! nominal weights (server j of M at j/M when the weights are equal). A
//! chooser's aperture is the arc from its place as wide as the fewest
//! whole chooser units that cover `min_aperture` servers' worth of ring
//! (Finagle's `minDeterministicAperture`, 12; all servers when there are
//! fewer): its pool is the servers that arc overlaps, each weighted by
//! the length of ring they share, and a weighted policy (`weighted-p2c`,
//! Finagle's `WeightedP2CPick`) picks within it by those weights.
//!
//! The arcs together cover the ring a whole number of times, so every
//! server's total weight over all choosers is its share of the ring times
//! that number: exactly even with equal weights, whatever N and M.

/// The width of every chooser's aperture, as a fraction of the ring: the
/// fewest whole units of 1/`choosers` that hold min(`min_aperture`,
/// `servers`) servers' average width, at most the ring. Finagle takes the
/// ceiling of a quotient of floats; this one is of integers, exact.
pub fn width(choosers: usize, servers: usize, min_aperture: u32) -> f64 {
    let (choosers, servers) = (choosers.max(1), servers.max(1));
    let aperture = (min_aperture as usize).min(servers);
    let units = (aperture * choosers).div_ceil(servers);
    (units as f64 / choosers as f64).min(1.0)
}

/// Chooser `chooser` of `choosers`'s aperture over `servers` (ascending),
/// whose nominal weights `weights` holds by server index: each server its
/// arc overlaps, ascending, with the length of ring they share.
pub fn shares(
    servers: &[u32],
    weights: &[f64],
    (chooser, choosers): (usize, usize),
    min_aperture: u32,
) -> Vec<(u32, f64)> {
    let total: f64 = servers.iter().map(|&s| weights[s as usize]).sum();
    let start = chooser as f64 / choosers.max(1) as f64;
    let arc = (start, start + width(choosers, servers.len(), min_aperture));
    let mut from = 0.0;
    let mut shares = Vec::new();
    for &server in servers {
        let length = weights[server as usize] / total;
        // The aperture may wrap past 1: it meets the server's arc there too.
        let shared = overlap(arc, (from, from + length)) + overlap(arc, (from + 1.0, from + 1.0 + length));
        if shared > 1e-12 {
            shares.push((server, shared));
        }
        from += length;
    }
    shares
}

/// The length two intervals share.
fn overlap((a, b): (f64, f64), (c, d): (f64, f64)) -> f64 {
    (b.min(d) - a.max(c)).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each server's weight summed over every chooser's aperture.
    fn coverage(choosers: usize, servers: usize, min_aperture: u32) -> Vec<f64> {
        let ring: Vec<u32> = (0..servers as u32).collect();
        let weights = vec![1.0; servers];
        let mut total = vec![0.0; servers];
        for chooser in 0..choosers {
            for (server, share) in shares(&ring, &weights, (chooser, choosers), min_aperture) {
                total[server as usize] += share;
            }
        }
        total
    }

    #[test]
    fn every_server_is_covered_exactly_as_much_as_every_other() {
        // N dividing M, M dividing N, neither, fewer servers than the aperture.
        for (choosers, servers) in [(10, 100), (100, 10), (7, 30), (13, 50), (30, 7), (4, 3)] {
            let units = (12usize.min(servers) * choosers).div_ceil(servers) as f64;
            for total in coverage(choosers, servers, 12) {
                // The arcs cover the ring `units` times: each server units/M.
                assert!((total - units / servers as f64).abs() < 1e-9, "N={choosers} M={servers}: {total}");
            }
        }
    }

    #[test]
    fn an_aperture_holds_at_least_min_aperture_servers_in_whole_chooser_units() {
        // 12 of 100 servers' worth with 10 choosers: 2 units of 1/10.
        assert_eq!(width(10, 100, 12), 0.2);
        // With 1,000 choosers, 0.12 is 120 whole units.
        assert!((width(1000, 100, 12) - 0.12).abs() < 1e-12);
        // One chooser unit when that is wider, the whole ring at most.
        assert_eq!(width(3, 100, 12), 1.0 / 3.0);
        assert_eq!(width(1, 5, 12), 1.0);
        let ring: Vec<u32> = (0..100).collect();
        let aperture = shares(&ring, &[1.0; 100], (3, 1000), 12);
        assert_eq!(aperture.len(), 13, "0.12 from 0.003 spans 0.00–0.13: 13 servers, two in part");
        assert!((aperture.iter().map(|s| s.1).sum::<f64>() - 0.12).abs() < 1e-12);
        let (first, last) = (aperture[0], aperture[12]);
        assert_eq!((first.0, last.0), (0, 12));
        assert!((first.1 - 0.007).abs() < 1e-12 && (last.1 - 0.003).abs() < 1e-12);
    }

    #[test]
    fn an_aperture_past_the_rings_end_wraps_to_its_start() {
        let ring: Vec<u32> = (0..20).collect();
        let servers: Vec<u32> = shares(&ring, &[1.0; 20], (9, 10), 4).iter().map(|s| s.0).collect();
        assert_eq!(servers, [0, 1, 18, 19]);
    }
}
