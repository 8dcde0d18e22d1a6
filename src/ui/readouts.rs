//! Which of a view's readouts (the key figures over its picture) it shows,
//! as a link names them (`readouts=p50,p99,throughput`): a chapter whose
//! prose cites three figures shows those three, where the six took a
//! phone's screen from the chart the chapter is about.

/// One of the readouts, in the order the strip shows them unless a link
/// lists its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Readout {
    /// The median queue time.
    P50,
    /// The 99th percentile of queue time.
    P99,
    /// Requests completed per second.
    Throughput,
    /// Tries sent back per second, with the errors under them.
    Bounces,
    /// The share of requests answered, with the failures under it.
    Availability,
    /// Simulated time, with the speed achieved under it.
    Time,
}

impl Readout {
    /// Every readout, in the strip's order: a link's list shows in it too.
    pub const ALL: [Readout; 6] = [
        Readout::P50,
        Readout::P99,
        Readout::Throughput,
        Readout::Bounces,
        Readout::Availability,
        Readout::Time,
    ];

    /// Its name in links (`readouts=`).
    pub fn key(self) -> &'static str {
        match self {
            Readout::P50 => "p50",
            Readout::P99 => "p99",
            Readout::Throughput => "throughput",
            Readout::Bounces => "bounces",
            Readout::Availability => "availability",
            Readout::Time => "time",
        }
    }

    /// Every readout's name in links, in the strip's order.
    pub fn keys() -> [&'static str; 6] {
        Readout::ALL.map(Readout::key)
    }

    /// The readouts `keys` names, in the list's order (each once): a
    /// chapter that teaches the median before the tail names p50 first.
    pub fn of_keys(keys: &[&str]) -> Vec<Readout> {
        let mut chosen: Vec<Readout> = Vec::new();
        for key in keys {
            if let Some(readout) = Readout::ALL.into_iter().find(|r| r.key() == *key) {
                if !chosen.contains(&readout) {
                    chosen.push(readout);
                }
            }
        }
        chosen
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_of_names_gives_its_readouts_in_its_own_order() {
        assert_eq!(
            Readout::of_keys(&["throughput", "p50", "p99", "p50"]),
            [Readout::Throughput, Readout::P50, Readout::P99]
        );
        assert_eq!(Readout::of_keys(&Readout::keys()), Readout::ALL);
        assert_eq!(Readout::of_keys(&[]), []);
    }

    #[test]
    fn every_readout_has_its_own_name() {
        let keys = Readout::keys();
        for (i, key) in keys.iter().enumerate() {
            assert!(!keys[i + 1..].contains(key), "{key} names two readouts");
        }
    }
}
