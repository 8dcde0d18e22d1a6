//! `lbsim keys`: where the scenario's placement scheme puts each key before
//! any load, as chooser 0 computes it (every chooser holding the same pool
//! computes the same), and how evenly the servers of its pool share the
//! key space. Under subsets or class pools chooser 0 holds part of the
//! servers, and the list and the shares are both its own.

use super::output;
use lbsim::keys::{spread, Unloaded};
use lbsim::scenario::PolicyKind;
use lbsim::{Scenario, Simulation};

/// The most keys listed key by key (the shares may count more).
const LISTED_KEYS: u64 = 100_000;

pub fn keys(scenario: &Scenario, json: bool) -> Result<(), String> {
    let sim = Simulation::new(scenario).map_err(|e| e.to_string())?;
    let (Some(placement), Some(counts), Some(counted)) =
        (sim.key_placement(), sim.key_counts(), sim.counted_keys())
    else {
        let schemes: Vec<_> = PolicyKind::ALL.iter().filter(|p| p.reads_keys()).map(|p| p.name()).collect();
        let (last, others) = schemes.split_last().expect("the registry has placement schemes");
        return Err(format!(
            "policy {} does not place by key: keys needs a placement scheme ({} or {last})",
            scenario.policy.name(),
            others.join(", ")
        ));
    };
    let keys = u64::from(scenario.key_space).min(LISTED_KEYS);
    let servers: Vec<u32> = (0..keys).map(|key| placement.place(key, &Unloaded)).collect();
    let pool = placement.members();
    let (sd_over_mean, max_over_mean) = spread(counts);
    if json {
        let out = serde_json::json!({
            "policy": scenario.policy.name(),
            "chooser": 0,
            "pool": pool,
            "keys": keys,
            "servers": servers,
            "counted": counted,
            "keys_per_server": counts,
            "spread": { "sd_over_mean": sd_over_mean, "max_over_mean": max_over_mean },
        });
        return output::line(out);
    }
    let name = scenario.policy.name();
    let everyone = scenario.servers as usize;
    let head = if pool.len() == everyone {
        format!("{name} over {everyone} servers: keys 0 to {} (of {}) listed", keys - 1, scenario.key_space)
    } else {
        format!(
            "{name}, keys as chooser 0 places them over its pool of {} of {everyone} servers: keys 0 to {} (of {}) listed",
            pool.len(),
            keys - 1,
            scenario.key_space
        )
    };
    let shown: Vec<String> = servers.iter().take(20).enumerate().map(|(k, s)| format!("{k}→{s}")).collect();
    let per: Vec<String> = pool.iter().zip(counts).map(|(s, n)| format!("{s}→{n}")).collect();
    output::out(format_args!(
        "{head}\nshare of keys per server ({counted}): sd/mean {sd_over_mean:.3}, max/mean {max_over_mean:.3}\nfirst keys (key→server): {}\nkeys per server: {}\n",
        shown.join(" "),
        per.join(" ")
    ))
}
