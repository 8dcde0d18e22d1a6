//! `lbsim keys`: where the scenario's placement scheme puts each key before
//! any load, as every chooser holding all the servers computes it, and how
//! evenly the servers share the key space.

use lbsim::keys::{spread, Unloaded};
use lbsim::{Scenario, Simulation};

/// The most keys listed key by key (the shares may count more).
const LISTED_KEYS: u64 = 100_000;

pub fn keys(scenario: &Scenario, json: bool) -> Result<(), String> {
    let sim = Simulation::new(scenario).map_err(|e| e.to_string())?;
    let (Some(placement), Some(counts), Some(counted)) =
        (sim.key_placement(), sim.key_counts(), sim.counted_keys())
    else {
        return Err(format!(
            "policy {} does not place by key: keys needs a placement scheme (modulo, ranges, table, ring, rendezvous, maglev or bounded-load)",
            scenario.policy.name()
        ));
    };
    let keys = u64::from(scenario.key_space).min(LISTED_KEYS);
    let servers: Vec<u32> = (0..keys).map(|key| placement.place(key, &Unloaded)).collect();
    let (sd_over_mean, max_over_mean) = spread(counts);
    if json {
        let out = serde_json::json!({
            "policy": scenario.policy.name(),
            "keys": keys,
            "servers": servers,
            "counted": counted,
            "keys_per_server": counts,
            "spread": { "sd_over_mean": sd_over_mean, "max_over_mean": max_over_mean },
        });
        println!("{out}");
        return Ok(());
    }
    println!(
        "{} over {} servers: keys 0 to {} (of {}) listed",
        scenario.policy.name(),
        counts.len(),
        keys - 1,
        scenario.key_space
    );
    println!("share of keys per server ({counted}): sd/mean {sd_over_mean:.3}, max/mean {max_over_mean:.3}");
    let shown: Vec<String> = servers.iter().take(20).enumerate().map(|(k, s)| format!("{k}→{s}")).collect();
    println!("first keys (key→server): {}", shown.join(" "));
    let per: Vec<String> = counts.iter().map(u64::to_string).collect();
    println!("keys per server: {}", per.join(" "));
    Ok(())
}
