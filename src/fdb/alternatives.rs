//! The alternatives of a request (the servers that can answer it) and the
//! order in which both balancers try them.
//!
//! The walk is the loop "find an alternative, if any, that is not failed,
//! starting with nextAlt" of `basicLoadBalance` and `loadBalanceImpl`
//! (`fdbrpc/include/fdbrpc/LoadBalance.actor.h`), and the seed's appendix
//! script: the best alternative comes first, then every other one once,
//! from `start_alt` on, round and round.

use super::FailureMonitor;
use crate::rng::Draw;

/// A datacenter, by number.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Datacenter(pub u8);

/// One server that can answer a request, and where it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Alternative {
    pub server: usize,
    pub datacenter: Datacenter,
}

/// A request's alternatives in the order the balancer numbers them, with how
/// many at the front are the nearest (`countBest`).
#[derive(Clone, Debug)]
pub struct Alternatives {
    list: Vec<Alternative>,
    count_best: usize,
}

impl Alternatives {
    /// Servers equally near, in the order given: `basicLoadBalance`'s proxies
    /// (its `ModelInterface` keeps the list as it comes).
    pub fn equally_near(servers: impl IntoIterator<Item = usize>) -> Alternatives {
        let list: Vec<Alternative> =
            servers.into_iter().map(|server| Alternative { server, datacenter: Datacenter(0) }).collect();
        Alternatives { count_best: list.len(), list }
    }

    /// As `MultiInterface` orders storage servers: shuffled, then those in the
    /// `local` datacenter moved to the front (keeping the shuffled order),
    /// which are the nearest when there are any.
    pub fn local_first(mut list: Vec<Alternative>, local: Datacenter, rng: &mut impl Draw) -> Alternatives {
        for i in (1..list.len()).rev() {
            list.swap(i, rng.index(i + 1));
        }
        crate::sort::sort_by_key(&mut list, |alternative| alternative.datacenter != local);
        let local_count = list.iter().filter(|alternative| alternative.datacenter == local).count();
        let count_best = if local_count > 0 { local_count } else { list.len() };
        Alternatives { list, count_best }
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// How many alternatives at the front are the nearest.
    pub fn count_best(&self) -> usize {
        self.count_best
    }

    pub fn server(&self, alt: usize) -> usize {
        self.list[alt].server
    }

    /// The alternative that is this server, if any.
    pub fn position(&self, server: usize) -> Option<usize> {
        self.list.iter().position(|alternative| alternative.server == server)
    }

    pub fn get(&self, alt: usize) -> Alternative {
        self.list[alt]
    }

    /// Whether the failure monitor believes any of them up.
    pub fn any_up(&self, monitor: &dyn FailureMonitor) -> bool {
        self.list.iter().any(|alternative| !monitor.is_failed(alternative.server))
    }
}

/// The order of attempts over `size` alternatives: `best` first, then the
/// others from `start` on. Endless: after every alternative it starts again
/// at `best`.
#[derive(Clone, Debug)]
pub struct Walk {
    size: usize,
    best: usize,
    start: usize,
    start_distance: usize,
    next: usize,
}

impl Walk {
    /// The walk from `best` whose second alternative is `next` (`nextAlt`,
    /// which `loadBalance` may choose by load). `next` differs from `best`,
    /// except over one alternative, where the source's draw makes it 1.
    pub fn new(size: usize, best: usize, next: usize) -> Walk {
        debug_assert!(size > 0);
        Walk { size, best, start: next, start_distance: (best + size - next) % size, next }
    }

    /// The walk from `best` whose second alternative comes from `draw`, a
    /// uniform draw in `0..max(size - 1, 1)` moved past `best` (the source's
    /// `randomInt(0, max(size() - 1, 1))`, then `if (nextAlt >= bestAlt) nextAlt++`).
    pub fn from_draw(size: usize, best: usize, draw: usize) -> Walk {
        Walk::new(size, best, if draw >= best { draw + 1 } else { draw })
    }

    /// A walk from `best` with a random second alternative.
    pub fn random_from(size: usize, best: usize, rng: &mut impl Draw) -> Walk {
        Walk::from_draw(size, best, rng.index(size.saturating_sub(1).max(1)))
    }

    pub fn best(&self) -> usize {
        self.best
    }

    /// The second alternative of each pass (`startAlt`).
    pub fn start(&self) -> usize {
        self.start
    }

    /// The alternative to try now (`useAlt`). The position `start` stands for
    /// `best`; the positions up to `start_distance` after it stand for the one
    /// before each, so that `best` is not tried twice and none is skipped.
    pub fn current(&self) -> usize {
        let from_start = (self.next + self.size - self.start) % self.size;
        if self.next == self.start {
            self.best
        } else if from_start <= self.start_distance {
            (self.next + self.size - 1) % self.size
        } else {
            self.next
        }
    }

    /// Moves to the next alternative; true when that starts the walk again
    /// (the source then knows it has tried every option).
    pub fn advance(&mut self) -> bool {
        self.next = (self.next + 1) % self.size;
        self.next == self.start
    }
}

impl Iterator for Walk {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        let alt = self.current();
        self.advance();
        Some(alt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fdb::testing::APPENDIX;
    use crate::rng::SimRng;

    #[test]
    fn the_walk_tries_alternatives_in_the_order_the_appendix_prints() {
        for run in APPENDIX {
            let (size, order) = (run.size, run.order);
            let walk = Walk::from_draw(size, run.best_alt, run.draw);
            let seed = run.seed;
            assert_eq!(
                (walk.start, walk.start_distance),
                (run.start_alt, run.start_distance),
                "random.seed({seed}), {size} alternatives"
            );
            // The script's two passes print the same order twice.
            let attempts: Vec<usize> = walk.take(2 * size).collect();
            assert_eq!(&attempts[..size], order, "random.seed({seed}), {size} alternatives");
            assert_eq!(&attempts[size..], order, "random.seed({seed}), {size} alternatives");
        }
    }

    #[test]
    fn each_pass_starts_at_the_best_and_tries_every_alternative_once() {
        for size in 1..=7 {
            for best in 0..size {
                for draw in 0..(size - 1).max(1) {
                    let mut walk = Walk::from_draw(size, best, draw);
                    for _ in 0..3 {
                        let mut pass: Vec<usize> = (0..size).map(|_| walk.next().unwrap()).collect();
                        assert_eq!(pass[0], best);
                        pass.sort_unstable();
                        assert_eq!(
                            pass,
                            (0..size).collect::<Vec<_>>(),
                            "size {size}, best {best}, draw {draw}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn advancing_says_when_the_walk_is_back_at_its_start() {
        let mut walk = Walk::from_draw(3, 1, 1); // start 2
        assert_eq!([walk.advance(), walk.advance(), walk.advance()], [false, false, true]);
    }

    #[test]
    fn local_alternatives_come_first_and_are_the_best() {
        let list: Vec<Alternative> =
            (0..6).map(|server| Alternative { server, datacenter: Datacenter((server % 2) as u8) }).collect();
        let alternatives = Alternatives::local_first(list.clone(), Datacenter(1), &mut SimRng::new(3));
        assert_eq!(alternatives.count_best(), 3);
        assert!((0..3).all(|alt| alternatives.get(alt).datacenter == Datacenter(1)));
        // With no alternative in the local datacenter, all are equally near.
        let far = Alternatives::local_first(list, Datacenter(9), &mut SimRng::new(3));
        assert_eq!(far.count_best(), 6);
    }
}
