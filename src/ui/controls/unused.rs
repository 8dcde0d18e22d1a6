//! When a control has no effect, and the words that say why: what a
//! policy reads is its descriptor's to declare; the wording is here.

use crate::format::and_list;
use crate::scenario::{BalancePer, PolicyKind};
use crate::ui::params::Params;

/// Why control `key` has no effect under `params`, when it has none:
/// whether a policy reads a field is its descriptor's to declare
/// ([`PolicyKind::reads`]); the wording of why is here, and the policies that
/// do read it are named from the registry, so the sentence stays true as
/// policies come and go.
pub fn unused_under(key: &str, params: &Params) -> Option<String> {
    if CONNECTION_SETTINGS.contains(&key) && params.scenario.balance_per == BalancePer::Request {
        return Some(format!(
            "Not used with balance_per = request: {key} shapes only a pick per connection."
        ));
    }
    // Set above 1 here, the scenario would refuse it: the control is off
    // until there are balancers to have workers.
    if key == "workers_per_balancer" && params.scenario.balancers == 0 {
        return Some(
            "Not used with balancers = 0: workers are a balancer's, and clients that choose for themselves \
             have none; add balancers first."
                .to_string(),
        );
    }
    let policy = params.scenario.policy;
    if policy.reads(key) {
        return None;
    }
    let readers = || policies_that(|p| p.reads(key));
    let why = match key {
        "choices" => format!("d candidates are drawn only by {}", readers()),
        "staleness_ms" => format!("the load board this refreshes is read only by {}", readers()),
        "key_space" | "key_popularity" | "key_per" => "only the placement schemes route by key".to_string(),
        "slow_start_window_ms" | "slow_start_aggression" => format!("slow start ramps a joining server's weight, read only by {}", readers()),
        "table_lag_ms" => "only the mapping table has copies to update".to_string(),
        _ if policy.reads_keys() && PolicyKind::is_ejection_field(key) => {
            "a key's server is its place, so a placement scheme takes no server out of its pool".to_string()
        }
        "dc_order" => "only FoundationDB's balancers order their alternatives by datacenter".to_string(),
        "retry_budget" | "retry_backoff_ms" if policy.is_fdb() => {
            "a FoundationDB balancer retries by its own rules, the next alternative in turn with a backoff of its own"
                .to_string()
        }
        _ => format!("{key} is read only by {}", readers()),
    };
    Some(format!("Not used by {}: {why}.", policy.title()))
}

/// The settings of a client's connections, read only when a server is
/// picked per connection: picked per request, a connection leads nowhere
/// in particular.
const CONNECTION_SETTINGS: [&str; 2] = ["connections_per_client", "max_connection_age_ms"];

/// The titles of the policies for which `has` holds, in the registry's
/// order, quoted (titles hold commas) and listed: “a”, “b” and “c”.
fn policies_that(has: impl Fn(PolicyKind) -> bool) -> String {
    and_list(PolicyKind::ALL.iter().filter(|p| has(**p)).map(|p| format!("“{}”", p.title())))
}
