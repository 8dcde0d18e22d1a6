//! The scenario files of `scenarios/`, compiled in: the presets the browser
//! offers and the command line runs by name, so both read the same files.

use crate::scenario::{Scenario, ScenarioError};

/// A scenario file by name (its file name without `.toml`).
#[derive(Debug, PartialEq)]
pub struct Preset {
    pub name: &'static str,
}

/// The presets, [`PRESETS`], and their files' text, [`FILES`], apart: a
/// view runs a preset from its pairs alone, and only the command line and
/// the lab read a file's comments (what it shows, the system it stands for,
/// each value's source), so a module that never reads them, the embeds',
/// leaves some 34 KB of text out.
macro_rules! presets {
    ($($name:literal),+ $(,)?) => {
        /// Every file in `scenarios/` (a test checks that none is missing).
        pub static PRESETS: &[Preset] = &[$(Preset { name: $name }),+];

        /// Each preset's file whole, in the order of [`PRESETS`].
        static FILES: &[&str] = &[$(include_str!(concat!("../scenarios/", $name, ".toml"))),+];
    };
}

/// Each scenario file's `key = value` pairs, by name (see `build.rs`).
type Pairs = &'static [(&'static str, &'static [(&'static str, &'static str)])];
static PAIRS: Pairs = include!(concat!(env!("OUT_DIR"), "/preset_pairs.rs"));

presets![
    "spike-random",
    "continuous-random",
    "continuous-repick",
    "p2c-cheating",
    "p2c-stale",
    "subsets",
    "balancers-20",
    "balancers-3",
    "theory-mm3",
    "theory-mm100",
    "theory-supermarket",
    "mmc",
    "benchmark",
    "failures",
    "envoy-round-robin",
    "envoy-least-request",
    "envoy-ring-hash",
    "envoy-maglev",
    "nginx",
    "nginx-least-conn",
    "nginx-random-two",
    "nginx-least-time",
    "haproxy",
    "haproxy-roundrobin",
    "haproxy-leastconn",
    "linkerd",
    "grpc-pick-first",
    "grpc-round-robin",
    "grpc-least-request",
    "kube-proxy-iptables",
    "kube-proxy-ipvs",
    "finagle",
    "aws-alb-round-robin",
    "aws-alb-lor",
    "traefik",
];

impl Preset {
    /// The preset's file as written, comments and all.
    pub fn toml(&self) -> &'static str {
        PRESETS.iter().position(|preset| preset == self).map_or("", |index| FILES[index])
    }

    pub fn find(name: &str) -> Option<&'static Preset> {
        PRESETS.iter().find(|p| p.name == name)
    }

    /// The preset's scenario, from its file's `key = value` pairs as the
    /// build read them (so the browser needs no TOML parser; a test checks
    /// they give what `Scenario::from_toml` gives).
    pub fn scenario(&self) -> Result<Scenario, ScenarioError> {
        let pairs = PAIRS.iter().find(|(name, _)| *name == self.name).map_or(&[][..], |(_, pairs)| *pairs);
        let mut scenario = Scenario::default();
        scenario.set_many(pairs.iter().copied())?;
        Ok(scenario)
    }

    /// The preset `scenario` is, its run length aside (a view runs a
    /// preset for as long as it likes), if any.
    pub fn of(scenario: &Scenario) -> Option<&'static Preset> {
        PRESETS.iter().find(|preset| {
            preset.scenario().is_ok_and(|mut own| {
                (own.duration_s, own.warmup_s) = (scenario.duration_s, scenario.warmup_s);
                own == *scenario
            })
        })
    }

    /// The file's opening comment, as one paragraph: what the preset shows.
    pub fn description(&self) -> String {
        let lines = self.toml().lines().map_while(|line| line.strip_prefix('#')).map(str::trim);
        lines.collect::<Vec<_>>().join(" ")
    }

    /// For a preset that stands for a real proxy or client library, the
    /// system's name, from its header's `# system:` line (docs/proxies.md).
    pub fn system(&self) -> Option<&'static str> {
        self.header("system").next()
    }

    /// The values of the header's `# KEY: VALUE` lines for `key`, in order:
    /// a proxy preset names its system, its version, and the source of each
    /// value it sets (`# source FIELD: CITATION`, under the key `source FIELD`).
    fn header(&self, key: &'static str) -> impl Iterator<Item = &'static str> {
        self.toml().lines().filter_map(move |line| {
            let (name, value) = line.strip_prefix("# ")?.split_once(": ")?;
            (name == key).then_some(value.trim())
        })
    }

    /// Its header's sources: each field it sets with the citation of that
    /// value, in order.
    pub fn sources(&self) -> impl Iterator<Item = (&'static str, &'static str)> {
        self.toml().lines().filter_map(|line| {
            let (name, citation) = line.strip_prefix("# source ")?.split_once(": ")?;
            Some((name, citation.trim()))
        })
    }
}

/// The presets grouped by the system each stands for, in the order the
/// systems first appear; lbsim's own presets, which stand for no system,
/// come first under `None`.
pub fn by_system() -> Vec<(Option<&'static str>, Vec<&'static Preset>)> {
    let mut groups: Vec<(Option<&'static str>, Vec<&'static Preset>)> = vec![(None, Vec::new())];
    for preset in PRESETS {
        let system = preset.system();
        match groups.iter_mut().find(|(name, _)| *name == system) {
            Some((_, members)) => members.push(preset),
            None => groups.push((system, vec![preset])),
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scenario_file_is_a_preset_that_parses_and_describes_itself() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios");
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .filter_map(|name| name.strip_suffix(".toml").map(String::from))
            .collect();
        files.sort();
        let mut names: Vec<String> = PRESETS.iter().map(|p| p.name.to_string()).collect();
        names.sort();
        assert_eq!(files, names);
        for preset in PRESETS {
            let scenario = preset.scenario().unwrap_or_else(|e| panic!("{}: {e}", preset.name));
            assert_eq!(Ok(scenario), Scenario::from_toml(preset.toml()), "{}", preset.name);
            assert!(preset.description().len() > 40, "{}: {}", preset.name, preset.description());
        }
        assert!(Preset::find("theory-mm3").unwrap().description().starts_with("M/M/3 exactly"));
    }

    /// The fields every proxy preset sets alike, so that two of them run on
    /// the same traffic: the scene, not a setting of the proxy.
    const TRAFFIC: &[&str] = &["servers", "load", "queue_timeout_ms", "balancers"];

    #[test]
    fn a_proxy_preset_names_its_version_and_a_source_for_every_value_docs_proxies_cites() {
        let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/proxies.md")).unwrap();
        let proxies: Vec<&Preset> = PRESETS.iter().filter(|p| p.system().is_some()).collect();
        assert_eq!(proxies.len(), 21);
        for preset in proxies {
            let name = preset.name;
            assert_eq!(preset.header("version").count(), 1, "{name}: one # version: line");
            let table: toml::Table = toml::from_str(preset.toml()).unwrap();
            let cited: Vec<&str> = preset.sources().map(|(field, _)| field).collect();
            for field in table.keys().filter(|key| !TRAFFIC.contains(&key.as_str())) {
                assert!(cited.contains(&field.as_str()), "{name}: no # source {field}: line");
            }
            for (field, citation) in preset.sources() {
                assert!(table.contains_key(field), "{name}: a source for {field}, which it does not set");
                assert!(docs.contains(citation), "{name}: docs/proxies.md does not cite {citation}");
            }
            assert!(docs.contains(&format!("`{name}`")), "docs/proxies.md does not name the preset {name}");
        }
    }

    #[test]
    fn presets_group_by_system_in_the_order_systems_first_appear() {
        let groups = by_system();
        let systems: Vec<Option<&str>> = groups.iter().map(|(system, _)| *system).collect();
        assert_eq!(
            systems,
            [None, Some("Envoy"), Some("NGINX"), Some("HAProxy"), Some("Linkerd"), Some("gRPC")]
                .into_iter()
                .chain([Some("Kubernetes"), Some("Finagle"), Some("AWS ALB"), Some("Traefik")])
                .collect::<Vec<_>>()
        );
        assert_eq!(groups.iter().map(|(_, presets)| presets.len()).sum::<usize>(), PRESETS.len());
        assert_eq!(groups[0].1[0].name, "spike-random");
    }
}
