//! The hash method's hash: SplitMix64's output function (Steele, Lea and
//! Flood, 2014) applied to a ball's number. It is integer arithmetic only, so
//! a ball lands in the same bin on every platform, natively and in wasm32;
//! each of its 64 input bits changes about half the output bits, so numbered
//! balls spread as random ones do.

/// SplitMix64's step: the state advanced by the golden gamma, then mixed.
/// Kept here, private to balls into bins, rather than shared with the
/// generator in `crate::rng` (which takes SplitMix64 from rand_xoshiro).
pub fn splitmix64(key: u64) -> u64 {
    let mut z = key.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The bin of the ball numbered `key` among `bins`: the hash scaled to
/// `0..bins` by its high bits (a multiply, no division; the bias is below
/// bins / 2⁶⁴).
pub fn bin_of(key: u64, bins: usize) -> usize {
    ((u128::from(splitmix64(key)) * bins as u128) >> 64) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{Draw, Keyed};

    #[test]
    fn follows_the_reference_splitmix64() {
        // splitmix64.c from state 1477776061723855037 gives these first two
        // outputs; the second is the hash of the state advanced by the gamma.
        let state = 1_477_776_061_723_855_037u64;
        assert_eq!(splitmix64(state), 1_985_237_415_132_408_290);
        assert_eq!(splitmix64(state.wrapping_add(0x9e37_79b9_7f4a_7c15)), 2_979_275_885_539_914_483);
        assert_eq!(splitmix64(0), 0xe220_a839_7b1d_cdaf);
        // The same function as the generator's SplitMix64 (rand_xoshiro's).
        for key in [0, 1, 41, u64::MAX] {
            assert_eq!(splitmix64(key), Keyed::new(key).next_u64());
        }
    }

    #[test]
    fn bins_are_in_range_and_neighbouring_keys_scatter() {
        let bins: Vec<usize> = (0..1_000).map(|key| bin_of(key, 10)).collect();
        assert!(bins.iter().all(|&b| b < 10));
        // Consecutive keys: a hash keeping their order would fill one bin at a time.
        let repeats = bins.windows(2).filter(|w| w[0] == w[1]).count();
        // Binomial(999, 1/10): mean 100, sd 9.5; allow 5 sd.
        assert!((52..=148).contains(&repeats), "{repeats}");
        assert_eq!(bin_of(u64::MAX, 1), 0);
    }
}
