use super::*;

/// The message `text` is refused with as option `key`, after checking
/// that the refusal changed nothing.
fn refusal(key: &str, text: &str) -> String {
    let mut options = Options::defaults(Kind::Embed);
    let error = options.set(key, text).unwrap_err();
    assert_eq!(options, Options::defaults(Kind::Embed), "{key}={text} changed the options");
    error.to_string()
}

fn set(key: &str, text: &str) -> Options {
    let mut options = Options::defaults(Kind::Embed);
    options.set(key, text).unwrap_or_else(|e| panic!("{e}"));
    options
}

#[test]
fn the_lab_shows_everything_and_an_embed_one_control_and_one_chart() {
    let lab = Options::defaults(Kind::Lab);
    assert_eq!(lab.controls, CONTROLS.iter().map(|c| c.key).collect::<Vec<_>>());
    assert_eq!(lab.charts, Chart::ALL);
    let embed = Options::defaults(Kind::Embed);
    assert_eq!((embed.controls, embed.charts), (vec!["policy"], vec![Chart::PERCENTILES]));
    assert_eq!(Kind::from_name("lab"), Some(Kind::Lab));
    assert_eq!(Kind::from_name("embed"), Some(Kind::Embed));
    assert_eq!(Kind::from_name("bins"), None);
}

#[test]
fn every_option_reads_back_the_text_it_shows() {
    let options = set("versus", "policy:random");
    for key in KEYS {
        let mut again = options.clone();
        again.set(key, &options.text(key)).unwrap();
        assert_eq!(again, options, "{key}");
    }
    assert_eq!(Options::defaults(Kind::Embed).entries(&Options::defaults(Kind::Embed)), []);
    assert_eq!(options.entries(&Options::defaults(Kind::Embed)), [("versus", "policy:random".to_string())]);
}

#[test]
fn a_reference_takes_settings_as_versus_does_and_names_itself_when_refused() {
    let options = set("reference", "policy:power-of-d");
    assert_eq!(options.reference, [("policy", "power-of-d".to_string())]);
    assert_eq!(options.text("reference"), "policy:power-of-d");
    assert!(refusal("reference", "policy").starts_with("field `reference`"));
}

#[test]
fn height_is_auto_or_whole_pixels_from_240_to_4000() {
    assert_eq!(set("height", "240").height, Some(240));
    assert_eq!(set("height", " 4000 ").height, Some(4000));
    assert_eq!(set("height", "auto").height, None);
    let allowed = "expected \"auto\" or whole pixels from 240 to 4000";
    for bad in ["239", "4001", "480.5", "-300", "tall", ""] {
        assert!(refusal("height", bad).starts_with("field `height`: "), "{bad}");
        assert!(refusal("height", bad).ends_with(allowed), "{bad}");
    }
}

#[test]
fn charts_and_controls_are_lists_of_known_names() {
    assert_eq!(set("charts", "all").charts, Chart::ALL);
    assert_eq!(set("charts", "none").charts, []);
    assert_eq!(
        set("charts", "load, percentiles,load").charts,
        [Chart::named("load").unwrap(), Chart::PERCENTILES]
    );
    assert_eq!(set("controls", "seed,speed").controls, ["seed", "speed"]);
    assert_eq!(set("controls", "none").controls, Vec::<&str>::new());
    assert_eq!(set("controls", "all").text("controls"), "all");
    assert_eq!(
        refusal("charts", "percentiles,pie"),
        "field `charts`: `percentiles,pie` is not allowed; expected \"all\", \"none\", or a \
         comma-separated list of percentiles, waits, clients, load, keys"
    );
    let controls = refusal("controls", "policy,colour");
    assert!(controls.starts_with("field `controls`: `policy,colour` is not allowed; expected \"all\""));
    assert!(CONTROLS.iter().all(|c| controls.contains(c.key)), "{controls}");
}

#[test]
fn readouts_are_a_list_of_known_names_shown_in_the_lists_order() {
    use crate::ui::readouts::Readout;
    assert_eq!(Options::defaults(Kind::Embed).readouts, Readout::ALL);
    assert_eq!(Options::defaults(Kind::Lab).readouts, Readout::ALL);
    let cited = set("readouts", "throughput, p99,p50,p99");
    assert_eq!(cited.readouts, [Readout::Throughput, Readout::P99, Readout::P50]);
    assert_eq!(cited.text("readouts"), "throughput,p99,p50");
    assert_eq!(set("readouts", "none").readouts, []);
    assert_eq!(set("readouts", "all").text("readouts"), "all");
    assert_eq!(set("readouts", "p50,p99,throughput,bounces,availability,time").text("readouts"), "all");
    let reordered = "time,p50,p99,throughput,bounces,availability";
    assert_eq!(set("readouts", reordered).text("readouts"), reordered);
    assert_eq!(
        cited.entries(&Options::defaults(Kind::Embed)),
        [("readouts", "throughput,p99,p50".to_string())]
    );
    assert_eq!(
        refusal("readouts", "p50,p90"),
        "field `readouts`: `p50,p90` is not allowed; expected \"all\", \"none\", or a \
         comma-separated list of p50, p99, throughput, bounces, availability, time"
    );
}

#[test]
fn links_name_the_charts_the_registry_says_views_draw() {
    let drawn: Vec<&str> =
        crate::charts::CHARTS.iter().filter(|c| c.tab_label.is_some()).map(|c| c.key).collect();
    assert_eq!(Chart::ALL.iter().map(|c| c.key()).collect::<Vec<_>>(), drawn);
    assert_eq!(Chart::named("keys").map(Chart::tab_label), Some("Keys"));
    assert_eq!(Chart::named("compare"), None, "two runs on one axes is lbsim plot's alone");
}

#[test]
fn a_question_is_worded_in_at_most_200_characters() {
    let asked = set("question", " Which has the longer tail? ");
    assert_eq!(asked.question, "Which has the longer tail?");
    assert_eq!(asked.text("question"), "Which has the longer tail?");
    assert!(refusal("question", &"é".repeat(201)).ends_with("expected text of at most 200 characters"));
}

#[test]
fn a_caption_has_at_most_200_characters() {
    let longest = "é".repeat(200);
    assert_eq!(set("caption", &longest).caption, longest);
    assert!(refusal("caption", &"é".repeat(201)).ends_with("expected text of at most 200 characters"));
}

#[test]
fn versus_takes_settings_a_scenario_accepts() {
    let options = set("versus", " policy:random ; staleness_ms:0;");
    assert_eq!(options.versus, [("policy", "random".to_string()), ("staleness_ms", "0".to_string())]);
    assert_eq!(options.text("versus"), "policy:random;staleness_ms:0");
    assert_eq!(versus_label(&options.versus), "policy = random, staleness_ms = 0");
    assert_eq!(versus_label(&set("versus", "policy:random").versus), "random");
    assert_eq!(set("versus", "").versus, []);
    let usage = "expected settings as key:value pairs separated by \";\" (policy:random;staleness_ms:0), \
        or a preset (preset:haproxy);";
    let no_colon = refusal("versus", "policy");
    assert!(no_colon.contains(usage) && no_colon.ends_with("`policy` has no `:`"), "{no_colon}");
    assert!(refusal("versus", "polcy:random").ends_with("unknown field `polcy` (did you mean `policy`?)"));
    let servers = refusal("versus", "servers:0");
    assert!(servers.ends_with("field `servers`: `0` is not allowed; expected a whole number from 1 to 10000"));
}

#[test]
fn a_link_names_the_connection_controls_and_a_twin_that_picks_per_request() {
    let connections = set("controls", "connections_per_client,max_connection_age_ms");
    assert_eq!(connections.controls, ["connections_per_client", "max_connection_age_ms"]);
    assert_eq!(set("versus", "balance_per:request").versus, [("balance_per", "request".to_string())]);
    let stream = refusal("versus", "balance_per:stream");
    assert!(
        stream.ends_with("field `balance_per`: `stream` is not allowed; expected one of request, connection"),
        "{stream}"
    );
    let age = refusal("versus", "max_connection_age_ms:0");
    assert!(
        age.ends_with("field `max_connection_age_ms`: `0` is not allowed; expected \"none\" or milliseconds from 1 to 86400000"),
        "{age}"
    );
}

#[test]
fn versus_takes_one_preset_by_name() {
    let options = set("versus", "preset: haproxy; load:0.5");
    assert_eq!(options.versus, [("preset", "haproxy".to_string()), ("load", "0.5".to_string())]);
    assert_eq!(options.text("versus"), "preset:haproxy;load:0.5");
    let unknown = refusal("versus", "preset:nginx-plus");
    assert!(unknown.contains("preset:NAME takes one of spike-random, continuous-random, "), "{unknown}");
    assert!(unknown.ends_with(", aws-alb-lor, traefik, not `nginx-plus`"), "{unknown}");
    assert!(refusal("versus", "preset:nginx;preset:haproxy").ends_with("; name one preset"));
}

#[test]
fn say_is_none_or_sentence_names() {
    assert_eq!(set("say", "versus,ratios").say.text(), "versus,ratios");
    assert!(set("say", "none").say.is_empty());
    let refused = refusal("say", "versus,poetry");
    assert!(
        refused.ends_with(&format!("\"none\" or a comma-separated list of {}", Readback::names().join(", ")))
    );
}

#[test]
fn switches_are_0_or_1() {
    assert!(!set("autoplay", "0").autoplay);
    assert!(set("presenter", "1").presenter);
    assert!(set("ask", "1").ask && !Options::defaults(Kind::Embed).ask);
    assert!(set("first", "one").one_first && !Options::defaults(Kind::Embed).one_first);
    assert!(refusal("first", "two").ends_with(
        "expected all (every request from the start) or one (one request's trip at a walking pace first)"
    ));
    for bad in ["yes", "2", "true"] {
        assert!(
            refusal("ask", bad).ends_with("expected 0 (no question) or 1 (ask for a guess before the run)")
        );
        assert!(refusal("autoplay", bad).ends_with("expected 0 (start paused) or 1 (start playing)"));
        assert!(refusal("presenter", bad).ends_with("expected 0 (the usual view) or 1 (the presenter view)"));
    }
}

#[test]
fn theme_and_metric_are_one_of_their_names() {
    assert_eq!(set("theme", "dark").theme, Theme::Dark);
    assert_eq!(set("theme", "light").text("theme"), "light");
    assert!(refusal("theme", "Dark").ends_with("expected one of auto, light, dark"));
    assert_eq!(set("metric", "session").metric, SeriesMetric::SessionTime);
    assert!(refusal("metric", "cpu")
        .ends_with("expected one of queue, latency, session (what the percentile chart plots)"));
}

#[test]
fn a_trace_is_named_by_file_size_and_hash() {
    let options = set("trace", "my:trace.csv:338928:ad0ba2568b68dd70");
    let need = options.trace.clone().unwrap();
    assert_eq!(
        (need.name.as_str(), need.bytes, need.hash.as_str()),
        ("my:trace.csv", 338928, "ad0ba2568b68dd70")
    );
    assert_eq!(options.text("trace"), "my:trace.csv:338928:ad0ba2568b68dd70");
    assert_eq!(set("trace", "none").trace, None);
    for bad in [
        "t.csv",
        "t.csv:12:ad0b",
        "t.csv:big:ad0ba2568b68dd70",
        ":12:ad0ba2568b68dd70",
        "t.csv:12:AD0BA2568B68DD70",
    ] {
        assert!(refusal("trace", bad).contains("name:bytes:hash"), "{bad}");
    }
    assert_eq!(set("trace_speed", "2.5").trace_speed, 2.5);
    for bad in ["0", "fast", "1e7"] {
        assert!(
            refusal("trace_speed", bad)
                .ends_with("a number from 0.001 to 1000000 (what the trace's times are divided by)"),
            "{bad}"
        );
    }
    assert!(!set("trace_loop", "0").trace_loop);
    assert!(
        refusal("trace_loop", "yes").ends_with("0 (play the trace once) or 1 (play it again when it ends)")
    );
    assert_eq!(set("trace_columns", "time=ts:ms").trace_columns, "time=ts:ms");
    assert!(refusal("trace_classes", &"c,".repeat(101)).ends_with("text of at most 200 characters"));
    // Unnamed, a trace's classes are any under one class and indices under
    // several, as the command line reads them without --trace-classes.
    let lab = Options::defaults(Kind::Lab);
    assert_eq!(lab.trace_classes_for(1), "");
    assert_eq!(lab.trace_classes_for(3), "0,1,2");
    assert_eq!(set("trace_classes", " api,static ").trace_classes_for(1), "api,static");
}

#[test]
fn a_scenario_field_is_not_an_option() {
    assert!(!Options::has("servers") && Options::has("height"));
    let error = Options::defaults(Kind::Lab).set("servers", "3").unwrap_err();
    assert!(matches!(error, ScenarioError::UnknownField { .. }));
}

#[test]
fn seeds_are_none_or_two_to_fifty_and_a_refusal_says_so() {
    assert_eq!(Options::defaults(Kind::Embed).seeds, 0, "off unless a link names it");
    assert_eq!(set("seeds", "20").seeds, 20);
    assert_eq!(set("seeds", " 50 ").seeds, 50);
    assert_eq!(set("seeds", "0").seeds, 0);
    assert_eq!(set("seeds", "20").entries(&Options::defaults(Kind::Embed)), [("seeds", "20".to_string())]);
    for bad in ["1", "51", "2.5", "-3", "many"] {
        assert_eq!(
            refusal("seeds", bad),
            format!(
                "field `seeds`: `{}` is not allowed; expected 0 (no spread) or a whole number of seeds from 2 to 50",
                bad.trim()
            ),
            "{bad}"
        );
    }
}
