use super::*;

fn scenario(settings: &[(&str, &str)]) -> Scenario {
    let mut scenario = Scenario::default();
    scenario.set_many(settings.iter().copied()).unwrap();
    scenario
}

fn versus(pairs: &[(&'static str, &str)]) -> Vec<(&'static str, String)> {
    pairs.iter().map(|(key, value)| (*key, value.to_string())).collect()
}

#[test]
fn a_policy_twin_names_each_side_by_its_policy_in_words() {
    let power_of_two = scenario(&[("policy", "power-of-d"), ("choices", "2")]);
    let sides = Sides::of(&power_of_two, &versus(&[("policy", "random")])).unwrap();
    assert_eq!(sides.own, "power of two choices");
    assert_eq!(sides.twin, "random");
    let piggyback = Sides::of(&power_of_two, &versus(&[("policy", "p2c-piggyback")])).unwrap();
    assert_eq!(piggyback.in_order(), ["power of two choices, live load", "power of two, learned load"]);
    let envoy = scenario(&[("policy", "least-request-with-replacement"), ("choices", "2")]);
    let sides = Sides::of(&envoy, &versus(&[("policy", "random")])).unwrap();
    assert_eq!(sides.in_order(), ["least requests of two", "random"]);
    let repick = scenario(&[("policy", "repick")]);
    let sides = Sides::of(&repick, &versus(&[("policy", "random")])).unwrap();
    assert_eq!(sides.in_order(), ["random that repicks after a bounce", "random"]);
}

#[test]
fn a_sentence_quotes_a_side_whose_name_holds_a_comma() {
    let power_of_two = scenario(&[("policy", "power-of-d"), ("choices", "2")]);
    let sides = Sides::of(&power_of_two, &versus(&[("policy", "p2c-piggyback")])).unwrap().in_prose();
    assert_eq!(sides.in_order(), ["“power of two choices, live load”", "“power of two, learned load”"]);
    let both = versus(&[("policy", "random"), ("staleness_ms", "0")]);
    let sides = Sides::of(&scenario(&[("policy", "power-of-d"), ("staleness_ms", "1000")]), &both).unwrap();
    assert_eq!(sides.in_prose().twin, "“policy = random, staleness_ms = 0”");
    let plain = Sides::of(&scenario(&[("policy", "power-of-d")]), &versus(&[("policy", "random")])).unwrap();
    assert_eq!(plain.in_prose(), plain, "a name without a comma reads as one already");
}

#[test]
fn the_own_side_follows_the_settings_as_they_change() {
    let three = scenario(&[("policy", "power-of-d"), ("choices", "3")]);
    let sides = Sides::of(&three, &versus(&[("policy", "random")])).unwrap();
    assert_eq!(sides.own, "power of three choices");
    let twelve = scenario(&[("policy", "least-request"), ("choices", "10")]);
    assert_eq!(
        Sides::of(&twelve, &versus(&[("policy", "random")])).unwrap().own,
        "least requests of 10 (own count)"
    );
}

#[test]
fn other_settings_name_each_side_by_key_and_value() {
    let subsets = scenario(&[("subset_size", "5"), ("servers", "100")]);
    let sides = Sides::of(&subsets, &versus(&[("subset_size", "all")])).unwrap();
    assert_eq!(sides.in_order(), ["subset_size = 5", "subset_size = all"]);
    let both = versus(&[("policy", "random"), ("staleness_ms", "0")]);
    let sides = Sides::of(&scenario(&[("policy", "power-of-d"), ("staleness_ms", "1000")]), &both).unwrap();
    assert_eq!(sides.own, "policy = power-of-d, staleness_ms = 1000");
    assert_eq!(sides.twin, "policy = random, staleness_ms = 0");
}

#[test]
fn a_twin_that_picks_per_request_names_each_side_by_how_often_it_picks() {
    let pinned = scenario(&[("balance_per", "connection")]);
    let sides = Sides::of(&pinned, &versus(&[("balance_per", "request")])).unwrap();
    assert_eq!(sides.in_order(), ["one pick per connection", "one pick per request"]);
}

#[test]
fn a_view_draws_a_picture_for_each_run() {
    let default = Scenario::default();
    assert_eq!(Pictures::for_view(&default, &[]), Pictures::One);
    assert_eq!(Pictures::for_view(&default, &[]).count(), 1);
    let two = Pictures::for_view(&default, &versus(&[("policy", "power-of-d")]));
    assert_eq!(two.count(), 2);
    assert_eq!(two.sides().unwrap().twin, "power of two choices");
}

#[test]
fn a_twin_whose_settings_do_not_apply_draws_no_second_picture() {
    // A pool past the last of 4 servers: the view says why in a notice.
    let small = scenario(&[("servers", "4")]);
    assert_eq!(Pictures::for_view(&small, &versus(&[("class_pools", "0-7")])), Pictures::One);
}

#[test]
fn where_the_sentences_speak_of_bounces_each_picture_counts_its_own() {
    let repick = scenario(&[("policy", "repick")]);
    let sides = Sides::of(&repick, &versus(&[("policy", "random")])).unwrap();
    let [own, twin] = sides.titles(None);
    assert_eq!((own.0.as_str(), twin.0.as_str()), ("A: random that repicks after a bounce", "B: random"));
    assert_eq!((own.1, twin.1), (None, None));
    let [own, twin] = sides.titles(Some([(56, 62_571), (0, 61_230)]));
    assert_eq!(
        own,
        ("A: random that repicks after a bounce".to_string(), Some(" · 1 in 1,117 bounced".to_string()))
    );
    assert_eq!(twin, ("B: random".to_string(), Some(" · no bounce yet".to_string())));
}

#[test]
fn a_preset_twin_is_the_preset_run_from_the_views_seed_for_as_long() {
    let mut own = crate::presets::Preset::find("envoy-least-request").unwrap().scenario().unwrap();
    (own.seed, own.duration_s, own.warmup_s) = (7, 30.0, 2.0);
    let twin = twin_of(&own, &versus(&[("preset", "nginx"), ("load", "0.5")])).unwrap();
    let mut nginx = crate::presets::Preset::find("nginx").unwrap().scenario().unwrap();
    (nginx.seed, nginx.duration_s, nginx.warmup_s, nginx.load) = (7, 30.0, 2.0, 0.5);
    assert_eq!(twin, nginx);
    // A view still on its preset's seed is that preset; on another it is
    // settings of its own, as the lab's preset menu says.
    assert_eq!(Sides::of(&own, &versus(&[("preset", "haproxy")])).unwrap().own, "your settings");
    own.seed = 1;
    let sides = Sides::of(&own, &versus(&[("preset", "haproxy")])).unwrap();
    assert_eq!(sides.in_order(), ["envoy-least-request", "haproxy"]);
    let sides =
        Sides::of(&scenario(&[("servers", "7")]), &versus(&[("preset", "nginx"), ("load", "0.5")])).unwrap();
    assert_eq!(sides.in_order(), ["your settings", "nginx with load = 0.5"]);
}
