use super::*;
use crate::ui::params::SPEED_KEY;

fn params(hash: &[(&str, &str)]) -> Params {
    let mut params = Params::default();
    for (key, value) in hash {
        params.set(key, value).unwrap();
    }
    params
}

fn sliders() -> impl Iterator<Item = &'static Control> {
    CONTROLS.iter().filter(|c| matches!(c.widget, Widget::Presets(_) | Widget::Steps(_)))
}

#[test]
fn each_control_is_a_setting_once_with_a_widget_that_fits_it() {
    for (i, control) in CONTROLS.iter().enumerate() {
        assert!(CONTROLS[..i].iter().all(|c| c.key != control.key), "{} twice", control.key);
        let kind = fields::find(control.key).ok().map(|f| f.kind);
        assert!(kind.is_some() || control.key == SPEED_KEY, "{} is not a setting", control.key);
        let fits = match control.widget {
            Widget::Choice => matches!(kind, Some(FieldKind::Choice(_))),
            Widget::Seed => matches!(kind, Some(FieldKind::Count { .. })),
            Widget::Presets(_) | Widget::Steps(_) => control.ladder().is_some_and(|l| l.len() > 1),
        };
        assert!(fits, "{}'s widget does not fit its field", control.key);
    }
}

#[test]
fn every_preset_is_a_value_its_field_accepts_numbers_in_increasing_order() {
    for control in sliders() {
        let Widget::Presets(values) = control.widget else { continue };
        assert_eq!(control.ladder().unwrap(), values, "{} refuses one of its presets", control.key);
        let numbers: Vec<f64> = values.iter().filter_map(|v| v.parse().ok()).collect();
        assert!(numbers.windows(2).all(|w| w[0] < w[1]), "{}'s presets are out of order", control.key);
    }
}

#[test]
fn a_slider_in_steps_ends_at_the_ends_of_its_fields_range() {
    let load = CONTROLS.iter().find(|c| c.key == "load").unwrap();
    let (Widget::Steps(step), FieldKind::Number { min, max }) =
        (&load.widget, fields::find("load").unwrap().kind)
    else {
        panic!("the load's slider goes in steps over a number");
    };
    let ladder = load.ladder().unwrap();
    let (first, last) = (ladder[0].parse::<f64>().unwrap(), ladder[ladder.len() - 1].parse::<f64>().unwrap());
    assert!(first >= min && first - step < min, "the slider starts at {first}");
    assert!(last <= max && last + step > max, "the slider ends at {last}");
    assert!(ladder.iter().all(|v| Params::accepts("load", v)));
    for beyond in [first - step, last + step] {
        assert!(!Params::accepts("load", &fields::format_number(beyond)), "{beyond}");
    }
}

#[test]
fn a_slider_at_its_end_shows_its_end_and_a_value_from_a_link_joins_it_in_order() {
    for control in sliders() {
        let mut ladder = control.ladder().unwrap();
        let last = ladder.len() - 1;
        // With a balancer, which a balancer's workers need.
        let end = params(&[("balancers", "1"), (control.key, &ladder[last].clone())]);
        assert_eq!(rung(&mut ladder, end.text(control.key)), last, "{}", control.key);
        assert_eq!(ladder.len(), last + 1, "{}: a value on the ladder is not added", control.key);
    }
    let mut ladder: Vec<String> = ["1", "2", "5", "all"].map(String::from).to_vec();
    assert_eq!(rung(&mut ladder, "3".into()), 2);
    assert_eq!(rung(&mut ladder, "7".into()), 4);
    assert_eq!(rung(&mut ladder, "0.5".into()), 0);
    assert_eq!(ladder, ["0.5", "1", "2", "3", "5", "7", "all"]);
    // "none" first, as the hedge's slider has it: a number goes among the numbers.
    let mut ladder: Vec<String> = ["none", "10", "20"].map(String::from).to_vec();
    assert_eq!(rung(&mut ladder, "15".into()), 2);
    assert_eq!(rung(&mut ladder, "60".into()), 4);
    assert_eq!(ladder, ["none", "10", "15", "20", "60"]);
}

#[test]
fn a_control_shows_its_value_with_its_unit() {
    let control = |key: &str| CONTROLS.iter().find(|c| c.key == key).unwrap();
    let setup = params(&[
        ("staleness_ms", "200"),
        ("subset_size", "all"),
        ("servers", "10"),
        ("slots", "4"),
        ("service_mean_ms", "10"),
        ("load", "0.5"),
    ]);
    assert_eq!(control("staleness_ms").shown(&setup), "200 ms");
    assert_eq!(control("subset_size").shown(&setup), "all");
    assert_eq!(control("servers").shown(&setup), "10");
    assert_eq!(
        control("clients").shown(&params(&[("clients", "15080")])),
        "15,080",
        "grouped as sentences are"
    );
    assert_eq!(control("demand").shown(&setup), "");
    // 10 servers × 4 slots ÷ 10 ms = 4,000 requests a second, at half load.
    assert_eq!(control("load").shown(&setup), "0.5 × capacity ≈ 2,000 req/s");
    let mut spike = setup.clone();
    spike.set("demand", "spike").unwrap();
    assert_eq!(control("load").shown(&spike), "0.5 × capacity (for continuous demand)");
    let policy = PolicyKind::from_name(&setup.text("policy")).unwrap();
    assert_eq!(control("policy").shown(&setup), policy.describe());
}

#[test]
fn a_control_says_why_the_policy_ignores_it() {
    let random = params(&[("policy", "random")]);
    assert_eq!(
        unused_under("choices", &random).unwrap(),
        "Not used by random: d candidates are drawn only by “power of d choices, live load”, \
         “least requests of d (own count)”, “least requests of d, drawn with replacement” and \
         “HAProxy's random(d), on its hash tree”."
    );
    assert_eq!(
        unused_under("staleness_ms", &random).unwrap(),
        "Not used by random: the load board this refreshes is read only by “power of d choices, live load”, \
         “shortest queue, live load” and “consistent hashing, bounded loads”."
    );
    assert_eq!(
        unused_under("virtual_nodes", &params(&[("policy", "maglev")])).unwrap(),
        "Not used by Maglev hashing: virtual_nodes is read only by “consistent hashing ring” \
         and “consistent hashing, bounded loads”."
    );
    assert_eq!(unused_under("choices", &params(&[("policy", "power-of-d")])), None);
    assert_eq!(unused_under("servers", &random), None);
    let ring = params(&[("policy", "ring")]);
    assert_eq!(unused_under("virtual_nodes", &ring), None);
    assert!(unused_under("eject_after", &ring).is_some());
}

#[test]
fn the_proxy_mechanisms_controls_say_which_policies_they_act_under() {
    let random = params(&[("policy", "random")]);
    assert_eq!(
        unused_under("slow_start_window_ms", &random).unwrap(),
        "Not used by random: slow start ramps a joining server's weight, read only by \
         “HAProxy's random(d), on its hash tree”, “least time (NGINX)”, “weighted round-robin”, \
         “weighted random”, “weighted least request (Envoy's EDF)” and “power of two by weight (Finagle's aperture)”."
    );
    let ring = params(&[("policy", "ring")]);
    for key in [
        "healthy_panic_threshold",
        "health_check_fall",
        "health_check_rise",
        "health_check_timeout_ms",
        "eject_max_for_ms",
        "eject_probe",
    ] {
        assert_eq!(unused_under(key, &random), None, "{key}");
        assert_eq!(
            unused_under(key, &ring).unwrap(),
            "Not used by consistent hashing ring: a key's server is its place, so a placement scheme takes no \
             server out of its pool.",
        );
    }
    let weighted = params(&[("policy", "weighted-least-request"), ("healthy_panic_threshold", "50")]);
    assert_eq!(unused_under("slow_start_window_ms", &weighted), None);
    let control = |key: &str| CONTROLS.iter().find(|c| c.key == key).unwrap();
    assert_eq!(control("healthy_panic_threshold").shown(&weighted), "50 %");
    assert_eq!(control("slow_start_window_ms").shown(&weighted), "none");
    assert_eq!(unused_under("slow_start_aggression", &weighted), None);
    assert!(unused_under("slow_start_aggression", &random).unwrap().starts_with(
        "Not used by random: slow start ramps a joining server's weight, read only by \
         “HAProxy's random(d), on its hash tree”, “least time (NGINX)”"
    ));
    let envoy = params(&[("eject_max_for_ms", "300000"), ("health_check_timeout_ms", "5000")]);
    assert_eq!(control("eject_max_for_ms").shown(&envoy), "300,000 ms");
    assert_eq!(control("health_check_timeout_ms").shown(&envoy), "5,000 ms");
}

#[test]
fn ejection_by_rates_is_unused_by_a_placement_scheme_and_used_by_least_request() {
    let (ring, least_request) = (params(&[("policy", "ring")]), params(&[("policy", "least-request")]));
    let rates = fields::FIELDS.iter().map(|f| f.key).filter(|key| {
        key.starts_with("success_rate_")
            || key.starts_with("failure_percentage_")
            || *key == "eject_always_one_host"
    });
    assert_eq!(rates.clone().count(), 7);
    for key in rates {
        assert_eq!(
            unused_under(key, &ring).unwrap(),
            "Not used by consistent hashing ring: a key's server is its place, so a placement scheme takes no \
             server out of its pool.",
            "{key}"
        );
        assert_eq!(unused_under(key, &least_request), None, "{key}");
    }
}

#[test]
fn a_balancers_workers_have_a_slider_off_until_there_are_balancers() {
    let workers = CONTROLS.iter().find(|c| c.key == "workers_per_balancer").expect("a control");
    assert_eq!(workers.ladder().unwrap(), ["1", "2", "4", "8", "16", "32", "64", "128", "256"]);
    assert_eq!(
        unused_under("workers_per_balancer", &params(&[("balancers", "0")])).unwrap(),
        "Not used with balancers = 0: workers are a balancer's, and clients that choose for themselves have \
         none; add balancers first."
    );
    let fleet = params(&[("balancers", "2"), ("workers_per_balancer", "8")]);
    assert_eq!(unused_under("workers_per_balancer", &fleet), None);
    assert_eq!(workers.shown(&fleet), "8");
    // What the control would set with no balancers, the scenario refuses.
    assert!(params(&[]).set("workers_per_balancer", "8").is_err());
}

#[test]
fn a_clients_connections_are_unused_when_each_request_is_picked_on_its_own() {
    let per_request = params(&[("balance_per", "request")]);
    for key in ["connections_per_client", "max_connection_age_ms"] {
        assert_eq!(
            unused_under(key, &per_request).unwrap(),
            format!("Not used with balance_per = request: {key} shapes only a pick per connection.")
        );
        assert_eq!(unused_under(key, &params(&[("balance_per", "connection")])), None, "{key}");
    }
    assert_eq!(unused_under("balance_per", &per_request), None);
}

/// The controls docs/embedding.md offers an embed's link, in its order.
fn documented_controls() -> Vec<String> {
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/embedding.md")).unwrap();
    let row = page.lines().find(|line| line.starts_with("| `controls` |")).expect("a row for `controls`");
    let allowed = row.split('|').nth(3).expect("a column of what is allowed");
    let (_, list) = allowed.split_once("list of").expect("a list of the controls");
    list.split('`').skip(1).step_by(2).map(String::from).collect()
}

#[test]
fn docs_list_every_control_an_embed_takes_and_nothing_else() {
    let documented = documented_controls();
    for control in CONTROLS {
        assert!(
            documented.iter().any(|key| key == control.key),
            "docs/embedding.md leaves out {}",
            control.key
        );
    }
    for key in &documented {
        assert!(CONTROLS.iter().any(|c| c.key == key), "docs/embedding.md lists {key}, which is no control");
    }
    assert_eq!(documented, CONTROLS.iter().map(|c| c.key).collect::<Vec<_>>(), "in the lab's order");
}

#[test]
fn a_field_keeps_its_help_in_a_pages_module_exactly_when_it_has_a_control() {
    for field in fields::FIELDS {
        match (field.help.in_pages(), CONTROLS.iter().any(|c| c.key == field.key)) {
            (false, true) => panic!("{} has a control, which shows its help: write it plainly, not with cli_help!", field.key),
            (true, false) => panic!("{} has no control to show its help: write it with cli_help!, which keeps it out of pages' modules", field.key),
            _ => {}
        }
    }
}

#[test]
fn the_clients_slider_steps_by_an_even_ratio_and_names_its_decades() {
    let clients = CONTROLS.iter().find(|c| c.key == "clients").unwrap();
    let ladder = clients.ladder().unwrap();
    // Each step multiplies by 2 or 2.5 (1, 2, 5, 10, …): even on the
    // scale whose decades the slider names, from 1 to 10,000.
    let values: Vec<f64> = ladder.iter().map(|v| v.parse().unwrap()).collect();
    for pair in values.windows(2) {
        let ratio = pair[1] / pair[0];
        assert!(ratio == 2.0 || ratio == 2.5, "{} to {} is a step of ×{ratio}", pair[0], pair[1]);
    }
    // Three steps to each decade: 500 → 200 → 100 → 50 is one decade down.
    let decades = decades(&ladder);
    let at: Vec<(f64, &str)> = decades.iter().map(|(at, name)| (*at * 12.0, name.as_str())).collect();
    assert_eq!(at, [(0.0, "1"), (3.0, "10"), (6.0, "100"), (9.0, "1,000"), (12.0, "10,000")]);
}

#[test]
fn a_scale_names_decades_only_on_a_ladder_spanning_three_of_them() {
    let ladder = |values: &[&str]| values.iter().map(|v| v.to_string()).collect::<Vec<_>>();
    assert_eq!(decades(&ladder(&["1", "2", "5", "10", "20"])), []);
    assert_eq!(decades(&ladder(&["0.5", "1", "1.5", "2"])), []);
    let speed = decades(&ladder(&["0.01", "0.1", "0.5", "1", "10"]));
    assert_eq!(
        speed,
        [(0.0, "0.01".to_string()), (0.25, "0.1".into()), (0.75, "1".into()), (1.0, "10".into())]
    );
    // Words ("none", "all") keep their place on the slider, unnamed.
    let hedge = decades(&ladder(&["none", "1", "10", "100"]));
    assert_eq!(hedge, [(1.0 / 3.0, "1".to_string()), (2.0 / 3.0, "10".into()), (1.0, "100".into())]);
}
