//! Service-time draws, scaled so every distribution has the scenario's mean.

use crate::rng::{Demands, Draw};
use crate::scenario::{Scenario, ServiceDistribution, MAX_CLASSES};
use crate::time::Time;

#[derive(Clone, Copy, Debug)]
pub enum ServiceTime {
    Constant {
        mean: f64,
    },
    Exponential {
        mean: f64,
    },
    /// exp(mu + sigma * N(0, 1)), with mu and sigma chosen for the mean and cv.
    Lognormal {
        mu: f64,
        sigma: f64,
    },
    /// scale / U^(1 / shape), with the scale chosen for the mean.
    Pareto {
        scale: f64,
        shape: f64,
    },
}

/// The work requests bring: each request's class, drawn by the classes'
/// shares, and its service demand from its class's distribution.
#[derive(Clone, Debug)]
pub struct Work {
    classes: Vec<ServiceTime>,
    /// Running totals of the classes' shares, normalised to end at 1.
    cumulative: Vec<f64>,
    /// Each class's priority level, 0 the highest (see
    /// `Scenario::class_levels`), in place: read on every queued arrival.
    levels: [u8; MAX_CLASSES],
}

impl Work {
    pub fn from_scenario(scenario: &Scenario) -> Work {
        let means = scenario.class_means_ms();
        let classes = means.iter().map(|&mean| ServiceTime::with_mean(scenario, mean)).collect();
        let total: f64 = scenario.class_shares.iter().sum();
        let cumulative = scenario
            .class_shares
            .iter()
            .scan(0.0, |sum, share| {
                *sum += share / total;
                Some(*sum)
            })
            .collect();
        let mut levels = [0; MAX_CLASSES];
        for (level, class_level) in levels.iter_mut().zip(scenario.class_levels()) {
            *level = class_level;
        }
        Work { classes, cumulative, levels }
    }

    /// A copy's demand: drawn afresh from its class's distribution
    /// (what a copy escapes is a slow server, not a large request), keyed by
    /// its request like the request's own.
    pub fn copy_demand(&self, work: Demands, (session, remaining): (u32, u16), class: u8) -> f32 {
        let service = &self.classes[usize::from(class).min(self.classes.len() - 1)];
        service.draw(&mut work.of_copy(session, remaining)) as f32
    }

    /// The demand of session `session`'s one request replayed from a trace,
    /// which may give its class and its service time: what it leaves out
    /// is drawn as for a request of the scenario's own.
    pub fn replayed(&self, work: Demands, session: u32, given: (Option<u8>, Option<Time>)) -> (u8, f32) {
        match given {
            (Some(class), Some(service)) => (class, service.0 as f32),
            (None, Some(service)) => (self.demand(work, session, 0).0, service.0 as f32),
            (Some(class), None) => {
                let service = &self.classes[usize::from(class).min(self.classes.len() - 1)];
                (class, service.draw(&mut work.of(session, 0)) as f32)
            }
            (None, None) => self.demand(work, session, 0),
        }
    }

    /// The priority level of `class` (0 is served first).
    pub fn level(&self, class: u8) -> usize {
        self.levels.get(usize::from(class)).map_or(0, |&level| level.into())
    }

    /// The class and demand of the `session`th session's request with
    /// `remaining` more behind it: keyed by the request, so the same whatever
    /// the routing. With one class nothing is drawn for the class.
    pub fn demand(&self, work: Demands, session: u32, remaining: u16) -> (u8, f32) {
        let mut rng = work.of(session, remaining);
        let class = match self.cumulative.len() {
            1 => 0,
            n => {
                let u = rng.unit();
                self.cumulative.iter().position(|&c| u < c).unwrap_or(n - 1)
            }
        };
        (class as u8, self.classes[class].draw(&mut rng) as f32)
    }
}

impl ServiceTime {
    /// Service times in nanoseconds at speed 1, of the scenario's
    /// distribution with a mean of `mean_ms`.
    pub fn with_mean(scenario: &Scenario, mean_ms: f64) -> ServiceTime {
        let mean = mean_ms * 1e6;
        match scenario.service {
            ServiceDistribution::Constant => ServiceTime::Constant { mean },
            ServiceDistribution::Exponential => ServiceTime::Exponential { mean },
            ServiceDistribution::Lognormal => {
                let variance = libm::log(1.0 + scenario.service_cv * scenario.service_cv);
                ServiceTime::Lognormal { mu: libm::log(mean) - variance / 2.0, sigma: libm::sqrt(variance) }
            }
            ServiceDistribution::Pareto => {
                let shape = scenario.pareto_shape;
                ServiceTime::Pareto { scale: mean * (shape - 1.0) / shape, shape }
            }
        }
    }

    pub fn draw(&self, rng: &mut impl Draw) -> f64 {
        match *self {
            ServiceTime::Constant { mean } => mean,
            ServiceTime::Exponential { mean } => rng.exponential(mean),
            ServiceTime::Lognormal { mu, sigma } => libm::exp(mu + sigma * rng.normal()),
            ServiceTime::Pareto { scale, shape } => scale / libm::pow(rng.unit(), 1.0 / shape),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn classes_take_their_shares_and_costs() {
        let mut scenario = Scenario::default();
        scenario
            .set_many([("class_shares", "99,1"), ("class_costs", "1,100"), ("service", "constant")])
            .unwrap();
        let work = Work::from_scenario(&scenario);
        let demands = crate::rng::Streams::new(3).work;
        let n = 100_000;
        let drawn: Vec<(u8, f32)> = (0..n).map(|i| work.demand(demands, i, 0)).collect();
        let heavy = drawn.iter().filter(|(c, _)| *c == 1).count() as f64;
        // Binomial(100000, 0.01): sd 31.5; allow 5.
        assert!((heavy - 1000.0).abs() < 5.0 * 31.5, "{heavy}");
        // Mean cost 0.99 + 1 = 1.99: the light class takes 20 / 1.99 ms.
        let light = 20e6 / 1.99;
        // Single precision: within 1 in 10 million.
        let exact = |c: u8| light * if c == 1 { 100.0 } else { 1.0 };
        assert!(drawn.iter().all(|&(c, d)| (f64::from(d) / exact(c) - 1.0).abs() < 1e-7));
    }

    use super::*;
    use crate::rng::SimRng;

    fn sample_mean(service: ServiceDistribution, n: usize) -> (f64, f64) {
        let scenario = Scenario {
            service,
            service_mean_ms: 2.0,
            service_cv: 0.5,
            pareto_shape: 3.5,
            ..Scenario::default()
        };
        let st = ServiceTime::with_mean(&scenario, scenario.service_mean_ms);
        let mut rng = SimRng::new(11);
        let draws: Vec<f64> = (0..n).map(|_| st.draw(&mut rng) / 1e6).collect();
        let mean = draws.iter().sum::<f64>() / n as f64;
        let var = draws.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
        (mean, var.sqrt())
    }

    #[test]
    fn every_distribution_has_the_requested_mean() {
        let n = 400_000;
        for (dist, sd) in [
            (ServiceDistribution::Constant, 0.0),
            (ServiceDistribution::Exponential, 2.0),
            (ServiceDistribution::Lognormal, 1.0),
            // Pareto(3.5) with mean 2: sd = mean / sqrt(shape (shape - 2)) = 0.873.
            (ServiceDistribution::Pareto, 0.873),
        ] {
            let (mean, _) = sample_mean(dist, n);
            let se = sd / (n as f64).sqrt();
            // Pareto's heavy tail makes its sample mean skewed; 6 se covers it.
            assert!((mean - 2.0).abs() <= 6.0 * se + 1e-9, "{dist:?}: mean {mean}");
        }
    }

    #[test]
    fn lognormal_has_the_requested_spread() {
        let (mean, sd) = sample_mean(ServiceDistribution::Lognormal, 400_000);
        assert!((sd / mean - 0.5).abs() < 0.01, "cv {}", sd / mean);
    }
}
