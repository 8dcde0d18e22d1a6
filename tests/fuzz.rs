//! Fuzzing the scenario parser and the engine's step with proptest.
//!
//! A normal test run tries a few hundred inputs; a fuzzing session raises the
//! count, e.g. `LBSIM_FUZZ_CASES=100000 cargo test --release --test fuzz`.
//! Properties: no input panics; errors name a field or a line; whatever a
//! parser accepts, the engine runs with balanced books.

use lbsim::scenario::FIELDS;
use lbsim::{Scenario, Simulation, Time};
use proptest::prelude::*;

fn cases() -> u32 {
    std::env::var("LBSIM_FUZZ_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(300)
}

/// Text values near and far from what fields accept.
fn value_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<i64>().prop_map(|n| n.to_string()),
        (-10.0f64..2000.0).prop_map(|x| format!("{x}")),
        (0u32..50).prop_map(|n| n.to_string()),
        Just("none".to_string()),
        Just("all".to_string()),
        Just("\"all\"".to_string()),
        Just("\"none\"".to_string()),
        Just("nan".to_string()),
        Just("inf".to_string()),
        Just("[1, 0.5]".to_string()),
        Just("[]".to_string()),
        "\"[a-z-]{0,16}\"",
        "[ -~]{0,12}",
    ]
}

fn field_name() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (0..FIELDS.len()).prop_map(|i| FIELDS[i].key.to_string()),
        1 => "[a-z_]{1,16}",
    ]
}

fn scenario_text() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => prop::collection::vec((field_name(), value_text()), 0..8)
            .prop_map(|lines| lines.iter().map(|(k, v)| format!("{k} = {v}\n")).collect()),
        1 => "[ -~\n]{0,200}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn parser_never_panics_and_accepted_scenarios_run(text in scenario_text()) {
        match Scenario::from_toml(&text) {
            Err(error) => prop_assert!(!error.to_string().is_empty()),
            Ok(mut scenario) => {
                // Keep each run small; the parse is what is under test here.
                let small = [("servers", "8"), ("clients", "12"), ("balancers", "2"), ("slots", "3")];
                for (key, value) in small {
                    let over = lbsim::scenario::fields::find(key).unwrap().text(&scenario);
                    if over.parse::<u64>().is_ok_and(|n| n > value.parse().unwrap()) {
                        scenario.set(key, value).unwrap();
                    }
                }
                let mut sim = Simulation::new(&scenario).unwrap();
                sim.advance_to(Time::from_ms(300.0), 20_000);
                prop_assert!(sim.books().balanced());
            }
        }
    }

    #[test]
    fn live_changes_with_arbitrary_text_never_panic(
        steps in prop::collection::vec((field_name(), value_text(), 1u64..200), 1..20),
        seed in 0u64..1000,
    ) {
        let mut scenario = Scenario { servers: 6, clients: 15, seed, ..Scenario::default() };
        scenario.service_mean_ms = 5.0;
        let mut sim = Simulation::new(&scenario).unwrap();
        for (key, value, gap_ms) in steps {
            let before = sim.scenario().clone();
            if let Err(error) = sim.set(&key, value.trim_matches('"')) {
                prop_assert!(error.field().is_some(), "{error}");
                prop_assert_eq!(sim.scenario(), &before);
            }
            sim.advance_to(sim.now() + Time::from_ms(gap_ms as f64), 50_000);
            prop_assert!(sim.books().balanced());
        }
    }
}
