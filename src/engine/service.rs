//! Service-time draws, scaled so every distribution has the scenario's mean.

use crate::rng::{Demands, Draw};
use crate::scenario::{Scenario, ServiceDistribution};

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

impl ServiceTime {
    /// Service times in nanoseconds at speed 1.
    pub fn from_scenario(scenario: &Scenario) -> ServiceTime {
        let mean = scenario.service_mean_ms * 1e6;
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

    /// The demand of the `session`th session's request with `remaining` more
    /// behind it: keyed by the request, so the same whatever the routing.
    pub fn demand(&self, work: Demands, session: u32, remaining: u16) -> f32 {
        self.draw(&mut work.of(session, remaining)) as f32
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
        let st = ServiceTime::from_scenario(&scenario);
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
