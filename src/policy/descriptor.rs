//! What lbsim knows of a routing policy: its [`Descriptor`], which the
//! policy's file holds, and [`PolicyKind`], a policy as scenarios name it
//! and code passes it around. The registry itself, [`POLICIES`], is in
//! `policy/mod.rs` beside the modules it lists; everything else (the
//! `policy` field's names, `lbsim policies`, which controls a policy
//! ignores, the trace hashes' cases) reads it.

use super::{best_of_d, foundationdb, repick, Policy, POLICIES};
use crate::keys::{self, Scheme};
use crate::rng::SimRng;
use crate::scenario::PolicyKind;

/// A routing policy as the rest of lbsim knows it.
pub struct Descriptor {
    /// Its identifier, in scenarios and links.
    pub name: &'static str,
    /// Its name for people, as a menu shows it.
    pub title: &'static str,
    /// One line for people choosing a policy.
    pub description: &'static str,
    /// What it reads and does that not every policy does.
    pub properties: &'static [Property],
    /// How a chooser routes under it.
    pub routing: Routing,
}

/// Something a policy reads or does that not every policy does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Property {
    /// It draws `choices` candidates.
    UsesChoices,
    /// It reads the load board that `staleness_ms` refreshes.
    ReadsBoard,
    /// It compares a sample of servers drawn at random, so that a picture
    /// of its decisions shows the candidates.
    ComparesASample,
    /// It times round trips (its chooser tells it each one).
    TimesRoundTrips,
    /// Servers tell its choosers when they fall idle.
    HearsIdleServers,
    /// Each chooser routes by a copy of one table, which follows the
    /// table's changes `table_lag_ms` late.
    CopiesATable,
    /// It reads each server's weight, which slow start ramps up.
    ReadsWeights,
    /// It compares each chooser's copies of the servers' loads, learned
    /// from their responses, which age between answers.
    LearnsLoad,
    /// It is NGINX's round robin, whose passive health checks skip a peer
    /// that failed `max_fails` times within `fail_timeout_s` and cut its
    /// effective weight (`engine/feature/nginx_round_robin.rs`).
    CountsFails,
}

impl Property {
    /// The scenario fields the property brings a policy to read.
    fn fields(self) -> &'static [&'static str] {
        match self {
            Property::UsesChoices => &["choices"],
            Property::ReadsBoard => &["staleness_ms"],
            Property::CopiesATable => &["table_lag_ms"],
            Property::ReadsWeights => SLOW_START,
            Property::CountsFails => &["max_fails", "fail_timeout_s"],
            Property::ComparesASample
            | Property::TimesRoundTrips
            | Property::HearsIdleServers
            | Property::LearnsLoad => &[],
        }
    }
}

/// The fields of outlier ejection (by errors in a row, by success rate and
/// by failure percentage) and health checks, which take a server out of a
/// chooser's pool, and of the panic that routes to every server when too
/// few are left in: read under policies whose choosers pick from a pool,
/// not where a key's server is its place.
const EJECTION: &[&str] = &[
    "eject_after",
    "eject_for_ms",
    "eject_max_fraction",
    "eject_max_for_ms",
    "eject_growth",
    "eject_jitter",
    "eject_interval_ms",
    "eject_always_one_host",
    "eject_probe",
    "success_rate_stdev_factor",
    "success_rate_minimum_hosts",
    "success_rate_request_volume",
    "failure_percentage_threshold",
    "failure_percentage_minimum_hosts",
    "failure_percentage_request_volume",
    "health_check_ms",
    "health_check_fall",
    "health_check_rise",
    "health_check_timeout_ms",
    "healthy_panic_threshold",
];

/// The fields of slow start, which ramps the weight of a server that
/// joins: read only by policies that read weights.
const SLOW_START: &[&str] =
    &["slow_start_window_ms", "slow_start_aggression", "slow_start_min_weight_percent"];

/// The fields of the engine's retries, which FoundationDB's balancers
/// replace with their own.
const RETRIES: &[&str] = &["retry_budget", "retry_backoff_ms"];

/// The fields of the keys requests carry, read only by placement schemes.
const KEYS: &[&str] = &["key_space", "key_popularity", "key_per"];

/// How a chooser routes under a policy.
pub enum Routing {
    /// It asks a policy of its own, built by this from `choices` (d for the
    /// best-of-d policies) and the nominal weight of each pool position.
    Picks(fn(choices: u32, weights: &[f64], rng: &mut SimRng) -> Box<dyn Policy>),
    /// It sends each request where its key lives under this scheme.
    Keys(Scheme),
    /// One of FoundationDB's balancers routes each request with a state
    /// machine of its own (see `engine::fdb`).
    Fdb,
}

impl Routing {
    /// The scenario fields a policy reads for routing this way (beyond
    /// those every policy reads): a chooser that picks from its pool ejects
    /// and retries; one that places by key reads the keys and its scheme's
    /// settings, and retries; FoundationDB's balancers eject, and order
    /// their alternatives by datacenter.
    fn fields(&self) -> [&'static [&'static str]; 3] {
        match self {
            Routing::Picks(_) => [EJECTION, RETRIES, &[]],
            Routing::Keys(scheme) => [KEYS, RETRIES, scheme.settings],
            Routing::Fdb => [EJECTION, &["dc_order"], &[]],
        }
    }
}

/// How many policies the registry holds.
const COUNT: usize = POLICIES.len();

/// The scenario names each policy by its place in the registry
/// ([`PolicyKind`], `scenario/policy_kind.rs`): the build stops here if a
/// descriptor's name is not the name at its place there.
const _: () = {
    assert!(COUNT == PolicyKind::NAMES.len(), "the scenario lists another number of policies");
    let mut i = 0;
    while i < COUNT {
        assert!(PolicyKind::ALL[i].is_named(POLICIES[i].name), "a policy's name differs from the scenario's");
        i += 1;
    }
};

/// A policy, as the scenario names it, resolved to its registry entry.
impl PolicyKind {
    pub const REPICK: PolicyKind = PolicyKind::named(repick::REPICK.name);
    pub const POWER_OF_D: PolicyKind = PolicyKind::named(best_of_d::POWER_OF_D.name);
    pub const TABLE: PolicyKind = PolicyKind::named(keys::TABLE.name);
    pub const FDB_BASIC: PolicyKind = PolicyKind::named(foundationdb::BASIC.name);
    pub const FDB_LOAD_BALANCE: PolicyKind = PolicyKind::named(foundationdb::LOAD_BALANCE.name);

    /// Its registry entry.
    pub fn descriptor(self) -> &'static Descriptor {
        POLICIES[self.index()]
    }

    /// Its name for people, as a menu shows it (the identifier stays for links).
    pub fn title(self) -> &'static str {
        self.descriptor().title
    }

    /// One line for people choosing a policy.
    pub fn describe(self) -> &'static str {
        self.descriptor().description
    }

    /// Whether the policy draws `choices` candidates.
    pub fn uses_choices(self) -> bool {
        self.descriptor().properties.contains(&Property::UsesChoices)
    }

    /// Whether the policy reads the load board that `staleness_ms` refreshes.
    pub fn reads_board(self) -> bool {
        self.descriptor().properties.contains(&Property::ReadsBoard)
    }

    /// Whether the policy compares a sample of servers drawn at random.
    pub fn compares_a_sample(self) -> bool {
        self.descriptor().properties.contains(&Property::ComparesASample)
    }

    /// Whether the policy times round trips (its chooser tells it each one).
    pub fn times_round_trips(self) -> bool {
        self.descriptor().properties.contains(&Property::TimesRoundTrips)
    }

    /// Whether servers tell choosers when they fall idle.
    pub fn hears_idle_servers(self) -> bool {
        self.descriptor().properties.contains(&Property::HearsIdleServers)
    }

    /// Whether the policy compares copies of load learned from responses.
    pub fn learns_load(self) -> bool {
        self.descriptor().properties.contains(&Property::LearnsLoad)
    }

    /// Whether the policy reads each server's weight.
    pub fn reads_weights(self) -> bool {
        self.descriptor().properties.contains(&Property::ReadsWeights)
    }

    /// Whether it is NGINX's round robin, which counts fails.
    pub fn counts_fails(self) -> bool {
        self.descriptor().properties.contains(&Property::CountsFails)
    }

    /// The placement scheme the policy is, if it places requests by key.
    pub fn scheme(self) -> Option<&'static Scheme> {
        match &self.descriptor().routing {
            Routing::Keys(scheme) => Some(scheme),
            _ => None,
        }
    }

    /// Whether the policy places requests by their key.
    pub fn reads_keys(self) -> bool {
        self.scheme().is_some()
    }

    /// Whether its placement is built from the scenario field `key`.
    pub fn places_by(self, key: &str) -> bool {
        self.scheme().is_some_and(|scheme| scheme.settings.contains(&key))
    }

    /// The scenario fields it reads that not every policy does, as its
    /// descriptor declares them (its properties and its routing).
    pub fn fields_read(self) -> impl Iterator<Item = &'static str> {
        let by_properties = self.descriptor().properties.iter().flat_map(|property| property.fields());
        by_properties.chain(self.descriptor().routing.fields().into_iter().flatten()).copied()
    }

    /// Whether it reads scenario field `key`: a field that some policy
    /// declares is read only by those that declare it; any other, by all.
    pub fn reads(self, key: &str) -> bool {
        let declared = |policy: PolicyKind| policy.fields_read().any(|field| field == key);
        declared(self) || !PolicyKind::ALL.iter().any(|&policy| declared(policy))
    }

    /// Whether scenario field `key` belongs to ejection or health checks,
    /// which take servers out of a pool (so a placement scheme, whose key
    /// names its server, reads none of them).
    pub fn is_ejection_field(key: &str) -> bool {
        EJECTION.contains(&key)
    }

    /// Whether the policy is one of FoundationDB's balancers, which run one
    /// state machine per request (see `engine::fdb`).
    pub fn is_fdb(self) -> bool {
        matches!(self.descriptor().routing, Routing::Fdb)
    }
}

/// `N` descriptors: the lists of `parts`, one after another (`N` is their
/// total length).
pub const fn concat<const N: usize>(parts: &[&[&'static Descriptor]]) -> [&'static Descriptor; N] {
    let mut all = [parts[0][0]; N];
    let (mut part, mut at) = (0, 0);
    while part < parts.len() {
        let mut i = 0;
        while i < parts[part].len() {
            all[at] = parts[part][i];
            (i, at) = (i + 1, at + 1);
        }
        part += 1;
    }
    assert!(at == N, "N must be the total length of the parts");
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::fields::{self, Live};

    #[test]
    fn every_policy_has_its_own_name_and_finds_itself_by_it() {
        for (i, policy) in PolicyKind::ALL.iter().enumerate() {
            assert_eq!(PolicyKind::NAMES[i], policy.name());
            assert_eq!(PolicyKind::from_name(policy.name()), Some(*policy));
            assert_eq!(PolicyKind::NAMES.iter().filter(|&&name| name == policy.name()).count(), 1);
        }
        assert_eq!(PolicyKind::from_name("no-such-policy"), None);
    }

    #[test]
    fn a_schemes_settings_are_fields_whose_change_rebuilds_the_policies() {
        for policy in PolicyKind::ALL {
            for key in policy.scheme().map_or(&[][..], |scheme| scheme.settings) {
                let field = fields::find(key).unwrap_or_else(|_| panic!("{policy:?}: no field {key}"));
                assert_eq!(field.live, Live::Policies, "{policy:?}: {key}");
                assert!(policy.places_by(key));
            }
        }
    }
}
