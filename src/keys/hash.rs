//! The one hash every placement uses: SplitMix64's output function
//! (Steele, Lea and Flood, 2014; the reference `splitmix64.c`).
//!
//! It is integer arithmetic only (shifts, xors, wrapping multiplies), so a
//! key lands on the same server natively and in WebAssembly, bit for bit.
//! Each use salts its input differently, so that a key's point on a ring,
//! a server's points and a server's rendezvous weight are unrelated.

/// SplitMix64's increment, the golden ratio in 64 bits.
const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// SplitMix64's finaliser: every input bit reaches every output bit.
pub fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// What a hash is for: each purpose salts its input with its own word.
#[derive(Clone, Copy)]
pub enum Salt {
    /// A key's point in the hash space.
    Key = 0x6b65_7973,
    /// A server's virtual node on a ring.
    Node = 0x6e6f_6465,
    /// A server's weight for a key under rendezvous hashing.
    Weight = 0x7765_6967,
    /// A server's first slot in Maglev's table.
    Offset = 0x6f66_6673,
    /// A server's step through Maglev's table.
    Skip = 0x736b_6970,
}

/// The hash of `value` for `salt`'s purpose.
pub fn of(salt: Salt, value: u64) -> u64 {
    mix(value ^ mix(salt as u64))
}

/// The hash of a pair (a server and a virtual node; a key's hash and a server).
pub fn pair(salt: Salt, first: u64, second: u64) -> u64 {
    mix(of(salt, first) ^ second)
}

/// A key's point in `0..2^64`.
pub fn key(key: u64) -> u64 {
    of(Salt::Key, key)
}

/// `hash` scaled to `0..n`, by its high bits (Lemire's multiply-shift), so a
/// range of the hash space is a range of buckets.
pub fn scaled(hash: u64, n: usize) -> usize {
    ((u128::from(hash) * n as u128) >> 64) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mix_is_splitmix64s_output_function() {
        // The reference implementation's first outputs from this state, as
        // published with it (and in rand_xoshiro's tests): output n is the
        // finaliser of the state after n increments.
        let state: u64 = 1477776061723855037;
        let published = [1985237415132408290, 2979275885539914483, 13511426838097143398, 8488337342461049707];
        for (n, &expected) in published.iter().enumerate() {
            assert_eq!(mix(state.wrapping_add(GAMMA.wrapping_mul(n as u64))), expected);
        }
    }

    #[test]
    fn salts_separate_purposes() {
        assert_ne!(of(Salt::Key, 7), of(Salt::Node, 7));
        assert_ne!(pair(Salt::Weight, 1, 2), pair(Salt::Weight, 2, 1));
    }

    #[test]
    fn scaling_keeps_order_and_range() {
        assert_eq!(scaled(0, 10), 0);
        assert_eq!(scaled(u64::MAX, 10), 9);
        assert_eq!(scaled(u64::MAX / 2, 10), 4);
    }
}
