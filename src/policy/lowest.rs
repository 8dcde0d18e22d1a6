//! The one place where a policy takes a minimum: the least-loaded of some
//! candidates, ties broken uniformly at random.
//!
//! Keeping the first minimum of a scan is not fair unless the scan order is
//! itself a uniformly random permutation: a scan from a random start favours
//! the tied server just after a long run of busier ones. With a stale board
//! that bias matters, since every arrival of a refresh period goes to the
//! servers tied at the board's minimum. So every policy that compares
//! servers calls [`lowest`], which counts the tied minima and draws one of
//! them.

use crate::rng::{Draw, SimRng};

/// The position, among `candidates`, whose `rank` is least (a load, a
/// count, a cost: whatever the caller compares); each of k tied minima is
/// returned with probability 1/k. The generator is used only when there is
/// a tie. `candidates` must not be empty.
pub fn lowest<I, K>(candidates: I, rank: impl Fn(usize) -> K, rng: &mut SimRng) -> usize
where
    I: Iterator<Item = usize> + Clone,
    K: Ord + Copy,
{
    let mut best = None;
    let mut tied = 0;
    for position in candidates.clone() {
        let this = rank(position);
        match best {
            Some((_, least)) if this > least => {}
            Some((_, least)) if this == least => tied += 1,
            _ => {
                best = Some((position, this));
                tied = 1;
            }
        }
    }
    let Some((first, least)) = best else { return 0 };
    if tied == 1 {
        return first;
    }
    let chosen = rng.index(tied);
    candidates.filter(|&p| rank(p) == least).nth(chosen).unwrap_or(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_single_minimum_needs_no_draw() {
        let loads = [3, 1, 2];
        let mut rng = SimRng::new(5);
        let mut untouched = SimRng::new(5);
        assert_eq!(lowest(0..3, |p| loads[p], &mut rng), 1);
        assert_eq!(rng.next_u64(), untouched.next_u64());
    }

    #[test]
    fn ties_are_broken_uniformly_wherever_they_sit() {
        // Tied minima (load 0) between runs of busier servers of every length:
        // a scan that kept the first minimum from a random start would pick
        // position 9 (after eight busy servers) nine times as often as 1.
        let layouts: [&[u64]; 4] = [
            &[5, 0, 5, 5, 5, 5, 5, 5, 5, 0, 0, 5],
            &[0, 0, 0, 7, 7, 7, 7, 7, 7, 7, 7, 0],
            &[1, 2, 3, 0, 4, 0, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 0, 1],
            &[0, 0],
        ];
        let mut rng = SimRng::new(20261201);
        for loads in layouts {
            let tied: Vec<usize> = (0..loads.len()).filter(|&p| loads[p] == 0).collect();
            let mut counts = vec![0u64; tied.len()];
            for _ in 0..20_000 {
                let pick = lowest(0..loads.len(), |p| loads[p], &mut rng);
                counts[tied.iter().position(|&t| t == pick).expect("picked a busier server")] += 1;
            }
            // Each of k <= 4 tied servers expects 20000 / k picks; allow 5
            // standard deviations of a binomial count.
            let expected = 20_000.0 / counts.len() as f64;
            let sd = (expected * (1.0 - 1.0 / counts.len() as f64)).sqrt();
            for &c in &counts {
                assert!((c as f64 - expected).abs() < 5.0 * sd, "{loads:?}: {counts:?}");
            }
        }
    }
}
