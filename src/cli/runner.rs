//! Runs scenarios for the command line, with progress on a terminal.

use super::args::{self, Command, RunArgs, TraceReplay};
use super::bins;
use super::capacity;
use super::grid;
use super::keys;
use super::manual;
use super::output;
use super::parallel;
use super::plot;
use super::precision::Precision;
use super::progress::{self, Progress};
use super::replay::Recorder;
use super::report;
use super::trace;
use lbsim::engine::Comparison;
use lbsim::export;
use lbsim::metrics::SamplePoint;
use lbsim::presets::Preset;
use lbsim::{Scenario, Simulation, Time};
use std::time::Instant;

/// Runs the command line; returns the process exit code.
pub fn main_with(argv: &[String]) -> i32 {
    progress::start_clock();
    match dispatch(argv) {
        Ok(()) => 0,
        Err(message) => {
            // When standard error fails too, the exit code alone tells.
            let _ = output::note(format_args!("lbsim: {message}\n"));
            2
        }
    }
}

fn dispatch(argv: &[String]) -> Result<(), String> {
    let command = args::parse(argv)?;
    if let Some(note) = command.run_args().and_then(|run| run.scenario.shadowed_file()) {
        output::note(format_args!("lbsim: {note}\n"))?;
    }
    if let Some(trace) = command.run_args().and_then(|run| run.trace.as_ref()) {
        trace.readable_again(rereads(&command))?;
    }
    match command {
        Command::Show(text) => output::line(text.trim_end())?,
        Command::Completions(shell) => output::out(manual::completions(shell))?,
        Command::Man(dir) => manual::man_pages(&dir)?,
        Command::Fields { markdown: false } => output::out(report::fields())?,
        Command::Fields { markdown: true } => output::out(report::fields_markdown())?,
        Command::Policies => output::out(report::policies())?,
        Command::Presets => output::out(report::presets())?,
        Command::Run(run) => single(&run)?,
        Command::Sweep(run) => sweep(&run)?,
        Command::Compare(run) => compare(&run)?,
        Command::Capacity(run) => capacity(&run)?,
        Command::Plot(run, figure) => plot::plot(&run, &figure)?,
        Command::Keys(run) => keys::keys(&load(&run, &[])?, run.json)?,
        Command::Bins(experiment) => bins::run(&experiment)?,
        Command::Trace(trace) => trace::run(&trace)?,
    }
    Ok(())
}

/// Why `command` reads its trace more than once, when it does.
fn rereads(command: &Command) -> Option<&'static str> {
    match command {
        Command::Compare(_) => Some("compare reads it once for A and once for B"),
        Command::Plot(_, plot) if plot.compares() => {
            Some("plot --chart compare reads it once for A and once for B")
        }
        Command::Sweep(_) => Some("sweep reads it once for each row"),
        Command::Capacity(_) => Some("capacity reads it once to measure its load and again for each probe"),
        _ => None,
    }
}

/// `capacity`: each policy of the `--set policy=a,b,...` list (or the
/// scenario's own) searched for its highest load within the objective.
fn capacity(run: &RunArgs) -> Result<(), String> {
    let objective = run.slo.ok_or("capacity needs --slo")?;
    let policies: Vec<String> = match run.sets.iter().rev().find(|(k, _)| k == "policy") {
        Some((_, list)) => list.split(',').map(|p| p.trim().to_string()).collect(),
        None => vec![load(run, &[])?.policy.name().to_string()],
    };
    let scenarios = policies
        .iter()
        .map(|p| Ok((p.clone(), load(run, &[("policy", p)])?)))
        .collect::<Result<Vec<_>, String>>()?;
    // A trace brings its own arrivals, searched over by their speed.
    if run.trace.is_none() {
        if let Some(why) = scenarios.iter().find_map(|(_, s)| lbsim::capacity::unsearchable(s)) {
            return Err(why.into());
        }
    }
    let cores = parallel::cores();
    let started = Instant::now();
    let offered = match &run.trace {
        Some(trace) if trace.speed != 1.0 || trace.looped => return Err(
            "capacity searches over the trace's speed, looping it: leave out --trace-speed and --trace-loop"
                .into(),
        ),
        Some(trace) => Some((trace, trace.offered(&scenarios[0].1)?)),
        None => None,
    };
    if let Some((trace, (load, _))) = offered {
        trace.searchable(load, scenarios[0].1.duration_s)?;
    }
    let at_speed_1 = offered.map(|(trace, (load, _))| (trace, load));
    let mut outcomes = capacity::search_all(scenarios.clone(), objective, at_speed_1, cores);
    let wall_s = started.elapsed().as_secs_f64();
    capacity::judged_every_probe(&outcomes, offered.is_some())?;
    // With a trace, a load is a speed of it: the requests a second are its rate at that speed.
    let speeds: Vec<Option<f64>> = match offered {
        None => Vec::new(),
        Some((_, (load, rate))) => outcomes
            .iter_mut()
            .map(|o| {
                o.requests_per_sec = o.capacity.map(|c| rate * c / load);
                o.capacity.map(|c| c / load)
            })
            .collect(),
    };
    let used = cores.min(scenarios.len());
    if run.json {
        let mut out = serde_json::json!({ "objective": objective, "outcomes": outcomes, "wall_s": wall_s, "threads": used });
        if let Some((trace, (load, rate))) = offered {
            out["trace"] = serde_json::json!({
                "file": trace.file, "load_at_speed_1": load, "rate_at_speed_1": rate, "speed_at_capacity": speeds,
            });
        }
        output::line(out)?;
    } else {
        if let Some((trace, (load, _))) = offered {
            output::out(trace.describe_search(load, &outcomes, &speeds))?;
        }
        output::out(report::capacity(&scenarios[0].1, &objective, &outcomes, wall_s, used))?;
    }
    Ok(())
}

/// `run`: one scenario, perhaps until a precision, perhaps writing CSV.
fn single(run: &RunArgs) -> Result<(), String> {
    let scenario = load(run, &[])?;
    let record = match &run.record_trace {
        Some(path) => Some(Recorder::create(path, &run.scenario.name(), run.trace.as_ref())?),
        None => None,
    };
    let mut watch =
        Watch { until_precision: run.until_precision, series: run.csv.as_ref().map(|_| Vec::new()), record };
    let (sim, wall_s) = match simulate_watching(&scenario, run.trace.as_ref(), &mut watch) {
        Ok(done) => done,
        Err(e) => {
            return Err(match watch.record.take() {
                Some(record) => format!("{e}; {}", record.abandon()),
                None => e,
            })
        }
    };
    if let Some(record) = watch.record.take() {
        output::note(format_args!("{}\n", record.finish()?))?;
    }
    let summary = sim.summary();
    let precision = run.until_precision.map(|target| Precision::of(target, &summary));
    if let (Some(dir), Some(series)) = (&run.csv, &watch.series) {
        let name = run.scenario.name();
        let files = [
            (export::file_name(&name, scenario.seed, "series.csv"), export::series_csv(series)),
            (export::file_name(&name, scenario.seed, "servers.csv"), export::servers_csv(&summary)),
        ];
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        for (file, text) in files {
            let path = dir.join(file);
            std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            output::note(format_args!("wrote {}\n", path.display()))?;
        }
    }
    if run.json {
        let mut out = json(&scenario, &summary, wall_s);
        if let Some(trace) = &run.trace {
            out["trace"] =
                serde_json::json!({ "file": trace.file, "speed": trace.speed, "looped": trace.looped });
        }
        if let Some(precision) = precision {
            out["precision"] = serde_json::json!(precision);
        }
        output::line(out)?;
    } else {
        if let Some(precision) = precision {
            output::out(precision.describe(&summary))?;
        }
        if let Some(trace) = &run.trace {
            output::out(trace.describe())?;
        }
        output::out(report::summary(&scenario, &summary, wall_s, run.trace.is_some()))?;
    }
    Ok(())
}

/// The scenario (a file, a preset or `default`) with the `--set` overrides
/// applied; for a sweep, each swept field at its value in `swept`.
pub(super) fn load(run: &RunArgs, swept: &[(&str, &str)]) -> Result<Scenario, String> {
    settle(run.scenario.scenario()?, run, swept)
}

/// `scenario` with the `--set` overrides applied, and set for the trace if
/// one is replayed.
fn settle(mut scenario: Scenario, run: &RunArgs, swept: &[(&str, &str)]) -> Result<Scenario, String> {
    if run.trace.is_some() {
        unused_by_replay("--set", &run.sets)?;
        // Each row of a trace is one request, a session of its own.
        scenario.set("session_length", "1").map_err(|e| e.to_string())?;
    }
    let pairs = run.sets.iter().map(|(key, value)| match swept.iter().find(|(k, _)| k == key) {
        Some((_, v)) => (key.as_str(), *v),
        None => (key.as_str(), value.as_str()),
    });
    scenario.set_many(pairs).map_err(|e| e.to_string())?;
    Ok(scenario)
}

/// Refuses a setting of a field a replay does not use, given with
/// `option`: its runs would differ in nothing but the label. (The
/// scenario's service is used for rows without a service time, so it stays.)
fn unused_by_replay(option: &str, sets: &[(String, String)]) -> Result<(), String> {
    match sets.iter().find(|(key, _)| key == "load" || key == "demand") {
        Some((key, value)) => Err(format!(
            "{option} {key}={value}: a replay's requests arrive when the trace says, so the scenario's {key} is not used; scale the trace's rate with --trace-speed"
        )),
        None => Ok(()),
    }
}

fn sweep(run: &RunArgs) -> Result<(), String> {
    if grid::is_grid(run) {
        return grid::sweep(run);
    }
    let mut lists = run.sets.iter().filter(|(_, v)| v.contains(','));
    let (key, values) = lists.next().ok_or("sweep needs one --set key=v1,v2,... with a list of values")?;
    // Every value is checked before any runs, so a typo late in the list
    // does not cost the runs before it.
    let values: Vec<&str> = values.split(',').map(str::trim).collect();
    let scenarios = values.iter().map(|value| load(run, &[(key, value)])).collect::<Result<Vec<_>, _>>()?;
    let trace = grid::provenance(run)?;
    if !run.json {
        output::out(grid::sweep_trace(&trace))?;
        output::line(report::sweep_header(key))?;
    }
    let mut rows = Vec::new();
    for (value, scenario) in values.iter().zip(&scenarios) {
        let (sim, wall_s) = simulate(scenario, run.trace.as_ref())?;
        let summary = sim.summary();
        if run.json {
            let mut row = serde_json::json!({ "value": value, "summary": summary, "wall_s": wall_s });
            if let Some(trace) = &trace {
                row["trace"] = trace.clone();
            }
            rows.push(row);
        } else {
            output::line(report::sweep_row(value, &summary))?;
        }
    }
    if run.json {
        output::line(serde_json::json!({ "field": key, "rows": rows }))?;
    }
    Ok(())
}

/// A (the scenario with `--set`) and B (A with `--vs`), to run to the same
/// simulated time; B shares A's seed unless asked for independent seeds.
pub(super) fn sides(run: &RunArgs) -> Result<(Scenario, Scenario), String> {
    let a = load(run, &[])?;
    if run.trace.is_some() {
        unused_by_replay("--vs", &run.vs)?;
    }
    let mut b = match run.vs_preset {
        Some(preset) => same_run_as(&a, preset, run)?,
        None => a.clone(),
    };
    b.set_many(run.vs.iter().map(|(k, v)| (k.as_str(), v.as_str()))).map_err(|e| format!("--vs: {e}"))?;
    if run.independent_seeds {
        if let Some((_, seed)) = run.vs.iter().find(|(k, _)| k == "seed") {
            return Err(format!("--vs seed={seed} and --independent-seeds both set B's seed; give one"));
        }
        b.seed = if a.seed < lbsim::scenario::MAX_SEED { a.seed + 1 } else { a.seed - 1 };
    }
    Ok((a, b))
}

/// `preset` with A's `--set`, run as A is: from A's seed, for A's
/// duration and warm-up, so that both meet the same requests.
fn same_run_as(a: &Scenario, preset: &Preset, run: &RunArgs) -> Result<Scenario, String> {
    let scenario = preset.scenario().map_err(|e| format!("--vs-preset {}: {e}", preset.name))?;
    let mut b = settle(scenario, run, &[]).map_err(|e| format!("--vs-preset {}: {e}", preset.name))?;
    (b.seed, b.duration_s, b.warmup_s) = (a.seed, a.duration_s, a.warmup_s);
    Ok(b)
}

/// What B changes from A, as `key=value` pairs: the `--vs` pairs, or with
/// `--vs-preset` the preset's name and every field in which B differs.
fn b_changes(run: &RunArgs, a: &Scenario, b: &Scenario) -> Vec<(String, String)> {
    let Some(preset) = run.vs_preset else { return run.vs.clone() };
    let differing = lbsim::scenario::FIELDS.iter().filter(|field| field.text(a) != field.text(b));
    let fields = differing.map(|field| (field.key.to_string(), field.text(b)));
    std::iter::once(("preset".to_string(), preset.name.to_string())).chain(fields).collect()
}

fn compare(run: &RunArgs) -> Result<(), String> {
    let (a, b) = sides(run)?;
    let (sim_a, wall_a) = simulate(&a, run.trace.as_ref())?;
    let (sim_b, wall_b) = simulate(&b, run.trace.as_ref())?;
    let comparison = Comparison::of(&sim_a, &sim_b);
    let (summary_a, summary_b) = (sim_a.summary(), sim_b.summary());
    if run.json {
        let side = |scenario: &Scenario, summary, wall_s| serde_json::json!({ "scenario": scenario, "summary": summary, "wall_s": wall_s });
        let out = serde_json::json!({
            "a": side(&a, &summary_a, wall_a),
            "b": side(&b, &summary_b, wall_b),
            "seeds": { "a": a.seed, "b": b.seed },
            "common_random_numbers": a.seed == b.seed,
            "comparison": comparison,
        });
        output::line(out)?;
    } else {
        if let Some(trace) = &run.trace {
            output::out(trace.describe())?;
        }
        output::out(format_args!(
            "A: {}\nB: {}\n{}",
            report::summary(&a, &summary_a, wall_a, run.trace.is_some()),
            report::summary(&b, &summary_b, wall_b, run.trace.is_some()),
            report::comparison(&b_changes(run, &a, &b), &summary_a, &summary_b, &comparison)
        ))?;
    }
    Ok(())
}

/// What a run watches for on its way: a precision to stop at, and the live
/// series to keep (the simulation keeps only its last two minutes).
#[derive(Default)]
struct Watch {
    until_precision: Option<f64>,
    series: Option<Vec<SamplePoint>>,
    /// Where the run's requests are written as a trace, when asked.
    record: Option<Recorder>,
}

impl Watch {
    /// Takes the series points newer than those kept; returns whether to stop.
    fn look(&mut self, sim: &mut Simulation) -> bool {
        if let Some(record) = &mut self.record {
            record.write(&sim.take_recorded());
        }
        if let Some(series) = &mut self.series {
            let last = series.last().map_or(f64::NEG_INFINITY, |p| p.time_ms);
            series.extend(sim.metrics().series.iter().filter(|p| p.time_ms > last));
        }
        self.until_precision.is_some_and(|target| Precision::of(target, &sim.summary()).reached)
    }
}

/// Runs to the scenario's duration (replaying `trace`, when given).
pub(super) fn simulate(
    scenario: &Scenario,
    trace: Option<&TraceReplay>,
) -> Result<(Simulation, f64), String> {
    simulate_watching(scenario, trace, &mut Watch::default())
}

/// Runs to the scenario's duration, keeping the whole live series.
pub(super) fn simulate_keeping_series(
    scenario: &Scenario,
    trace: Option<&TraceReplay>,
) -> Result<(Simulation, Vec<SamplePoint>), String> {
    let mut watch = Watch { until_precision: None, series: Some(Vec::new()), record: None };
    let (sim, _) = simulate_watching(scenario, trace, &mut watch)?;
    Ok((sim, watch.series.unwrap_or_default()))
}

/// Runs to the scenario's duration, or until `watch` says stop, in steps
/// short enough that no series point is missed, with progress on a
/// terminal. A replayed trace's fault stops it with the trace's message;
/// rows the trace left out are noted.
fn simulate_watching(
    scenario: &Scenario,
    trace: Option<&TraceReplay>,
    watch: &mut Watch,
) -> Result<(Simulation, f64), String> {
    let (mut sim, replayed) = match trace {
        None => (Simulation::new(scenario).map_err(|e| e.to_string())?, None),
        Some(trace) => {
            trace.fits(scenario.duration_s)?;
            let (arrivals, outcome) = trace.arrivals(scenario.class_shares.len())?;
            (Simulation::replaying(scenario, arrivals).map_err(|e| e.to_string())?, Some((trace, outcome)))
        }
    };
    if watch.record.is_some() {
        sim.record_arrivals();
    }
    let started = Instant::now();
    let end = Time::from_secs(scenario.duration_s);
    let progress = Progress::new(end.0, format!("of {} simulated s", scenario.duration_s));
    let longest_step = Time::from_secs(60.0);
    let chunks = 200u64.max(end.0.div_ceil(longest_step.0));
    for k in 1..=chunks {
        sim.advance_to(Time(end.0 / chunks * k).max(if k == chunks { end } else { Time::ZERO }), u64::MAX);
        if watch.look(&mut sim) {
            break;
        }
        progress.set(sim.now().0);
    }
    drop(progress);
    if let Some((trace, outcome)) = replayed {
        if let Some(note) = trace.finish(&outcome, end)? {
            output::note(format_args!("lbsim: {note}\n"))?;
        }
    }
    if let Some(halt) = sim.halted() {
        return Err(halt.to_string());
    }
    let wall_s = started.elapsed().as_secs_f64();
    Ok((sim, wall_s))
}

fn json(scenario: &Scenario, summary: &lbsim::Summary, wall_s: f64) -> serde_json::Value {
    serde_json::json!({ "scenario": scenario, "summary": summary, "wall_s": wall_s })
}
