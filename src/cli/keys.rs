//! `lbsim keys`: where the scenario's placement scheme puts each key before
//! any load, as every chooser holding all the servers computes it, and how
//! evenly the servers share the key space.

use super::output;
use lbsim::engine::SAMPLED_KEYS;
use lbsim::keys::{spread, Unloaded};
use lbsim::{Scenario, Simulation};

pub fn keys(scenario: &Scenario, json: bool) -> Result<(), String> {
    let sim = Simulation::new(scenario).map_err(|e| e.to_string())?;
    let placement = sim.key_placement().ok_or_else(|| {
        format!(
            "policy {} does not place by key: keys needs a placement scheme (modulo, ranges, table, ring, rendezvous, maglev or bounded-load)",
            scenario.policy.name()
        )
    })?;
    // Listed: the whole key space, up to as many keys as the shares sample.
    let keys = u64::from(scenario.key_space).min(SAMPLED_KEYS);
    let servers: Vec<u32> = (0..keys).map(|key| placement.place(key, &Unloaded)).collect();
    // The shares over the keys the summary samples (all of a small key space).
    let counts = sim.key_counts().unwrap_or_default();
    let (sd_over_mean, max_over_mean) = spread(counts);
    if json {
        let out = serde_json::json!({
            "policy": scenario.policy.name(),
            "keys": keys,
            "servers": servers,
            "keys_per_server": counts,
            "spread": { "sd_over_mean": sd_over_mean, "max_over_mean": max_over_mean },
        });
        return output::line(out);
    }
    let shown: Vec<String> = servers.iter().take(20).enumerate().map(|(k, s)| format!("{k}→{s}")).collect();
    let per: Vec<String> = counts.iter().map(u64::to_string).collect();
    output::out(format_args!(
        "{} over {} servers: keys 0 to {} (of {})\nshare of keys per server: sd/mean {sd_over_mean:.3}, max/mean {max_over_mean:.3}\nfirst keys (key→server): {}\nkeys per server: {}\n",
        scenario.policy.name(),
        counts.len(),
        keys - 1,
        scenario.key_space,
        shown.join(" "),
        per.join(" ")
    ))
}
