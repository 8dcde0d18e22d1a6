//! `lbsim bins`: balls into bins (see `lbsim::bins`), each method's trials
//! spread over the cores, each trial on its own seed, so the figures do not
//! depend on the number of threads.

use super::command::BinsCommand;
use super::output;
use super::parallel::{cores, map_on_cores};
use super::progress::Progress;
use lbsim::bins::{Experiment, Method, Outcome, MAX_BALLS, MAX_BINS, MAX_D};
use lbsim::scenario::echo;
use lbsim::scenario::MAX_SEED;
use std::fmt::Write;
use std::time::Instant;

/// Most trials of one method.
pub const MAX_TRIALS: u64 = 100_000;
/// Most balls one method throws over all its trials: at some 10^8 throws a
/// second, minutes on a core. Each bound alone would allow 10^14 (days).
pub const MAX_THROWS: u64 = 10_000_000_000;

#[derive(Debug, PartialEq)]
pub struct BinsArgs {
    pub balls: u64,
    pub bins: usize,
    /// One row each, in the order asked for.
    pub methods: Vec<Method>,
    pub trials: u64,
    pub seed: u64,
    pub json: bool,
}

/// `--method`'s words, in the order of its message.
const METHOD_NAMES: &str = "random, best-of-d, round-robin or hash";

impl BinsArgs {
    /// The experiment `lbsim bins` asks for, its options checked together.
    pub fn of(options: BinsCommand) -> Result<BinsArgs, String> {
        let number = |flag, text: Option<String>, min, max, note, default| match text {
            Some(text) => whole(flag, &text, min, max, note),
            None => Ok(default),
        };
        let balls = number("--balls", options.balls, 1, MAX_BALLS, "", 1_000_000)?;
        let bins = number("--bins", options.bins, 1, MAX_BINS as u64, "", 100)? as usize;
        let trials = number("--trials", options.trials, 2, MAX_TRIALS, " (a standard error needs two)", 200)?;
        let seed = number("--seed", options.seed, 0, MAX_SEED, "", 1)?;
        let choices = options.choices.as_deref().map(parse_choices).transpose()?;
        let methods: Vec<String> = match &options.method {
            Some(list) => list.split(',').map(|m| m.trim().to_string()).collect(),
            None => vec!["best-of-d".to_string()],
        };
        if balls * trials > MAX_THROWS {
            return Err(format!(
                "--balls × --trials is at most {MAX_THROWS} balls a method (minutes on a core), not {}",
                balls * trials
            ));
        }
        if choices.is_some() && !methods.iter().any(|m| m == "best-of-d") {
            return Err(
                "--choices belongs to --method best-of-d, which is not among the methods asked for".into()
            );
        }
        let choices = choices.unwrap_or_else(|| vec![1, 2]);
        if let Some(&d) = choices.iter().find(|&&d| d > bins) {
            return Err(format!("--choices: best of {d} draws {d} distinct bins, but --bins is {bins}"));
        }
        let mut rows = Vec::new();
        for name in methods {
            let more = match name.as_str() {
                "random" => vec![Method::Random],
                "best-of-d" => choices.iter().map(|&d| Method::best_of(d)).collect(),
                "round-robin" => vec![Method::RoundRobin],
                "hash" => vec![Method::Hash],
                other => {
                    return Err(format!(
                        "--method takes {METHOD_NAMES}, separated by commas, not {shown}",
                        shown = echo(other)
                    ))
                }
            };
            for method in more {
                if !rows.contains(&method) {
                    rows.push(method);
                }
            }
        }
        Ok(BinsArgs { balls, bins, methods: rows, trials, seed, json: options.json })
    }
}

/// A whole number from `min` to `max` (digits, `_` allowed between them).
fn whole(flag: &str, text: &str, min: u64, max: u64, note: &str) -> Result<u64, String> {
    let digits = text.trim().replace('_', "");
    match digits.parse::<u64>() {
        Ok(value) if (min..=max).contains(&value) && digits.chars().all(|c| c.is_ascii_digit()) => Ok(value),
        _ => Err(format!(
            "{flag} takes a whole number from {min} to {max}{note}, not {shown}",
            shown = echo(text)
        )),
    }
}

/// `1,2,3`: bins drawn per ball, each from 1 to [`MAX_D`].
fn parse_choices(text: &str) -> Result<Vec<usize>, String> {
    let bad = || {
        format!(
            "--choices takes whole numbers from 1 to {MAX_D} separated by commas (1,2,3), not {shown}",
            shown = echo(text)
        )
    };
    text.split(',')
        .map(|d| match d.trim().parse::<usize>() {
            Ok(d) if (1..=MAX_D).contains(&d) => Ok(d),
            _ => Err(bad()),
        })
        .collect()
}

/// Runs every method's trials and prints the table, or JSON.
pub fn run(args: &BinsArgs) -> Result<(), String> {
    let threads = cores().min(args.trials as usize);
    let started = Instant::now();
    let rows = measure(args, threads);
    let wall_s = started.elapsed().as_secs_f64();
    if args.json {
        let rows: Vec<serde_json::Value> = rows
            .iter()
            .map(|(outcome, wall_s)| {
                let mut row = serde_json::to_value(outcome).unwrap_or_default();
                row["wall_s"] = serde_json::json!(wall_s);
                row
            })
            .collect();
        let out = serde_json::json!({
            "balls": args.balls, "bins": args.bins, "trials": args.trials, "seed": args.seed,
            "threads": threads, "rows": rows, "wall_s": wall_s,
        });
        output::line(out)?;
    } else {
        output::out(report(args, &rows, wall_s, threads))?;
    }
    Ok(())
}

/// A trial's work by `method`, in trials by random, so that the progress
/// bar's time to go counts a best-of-d trial as the several it takes.
/// Measured with 10^6 balls into 100 bins (and alike into 10^6): random,
/// round-robin and hash about 1.5 ns a ball, best of d some 2 + 4d times
/// that (10× for 2, 18× for 4, 34× for 8): d distinct draws, d counts read
/// and a draw to break ties, where random makes one draw.
fn trial_work(method: Method) -> u64 {
    match method {
        Method::BestOf(d) => 2 + 4 * d as u64,
        Method::Random | Method::RoundRobin | Method::Hash => 1,
    }
}

/// Each method's outcome and the wall seconds its trials took on `threads`.
fn measure(args: &BinsArgs, threads: usize) -> Vec<(Outcome, f64)> {
    let trials = args.methods.len() as u64 * args.trials;
    let work = args.methods.iter().map(|&method| trial_work(method)).sum::<u64>() * args.trials;
    let progress = Progress::new(work, format!("of {trials} trials"));
    let mut rows = Vec::new();
    for &method in &args.methods {
        let experiment = Experiment { balls: args.balls, bins: args.bins, method, seed: args.seed };
        let started = Instant::now();
        let spreads = map_on_cores(args.trials as usize, threads, |t| {
            let spread = experiment.trial(t as u64);
            progress.inc(trial_work(method));
            spread
        });
        rows.push((Outcome::of(&experiment, &spreads), started.elapsed().as_secs_f64()));
    }
    rows
}

/// The table: a row per method, measured beside theory, then the sources.
fn report(args: &BinsArgs, rows: &[(Outcome, f64)], wall_s: f64, threads: usize) -> String {
    let mut out = String::new();
    let mean = args.balls as f64 / args.bins as f64;
    let _ = writeln!(
        out,
        "balls into bins · {} balls, {} bins ({} a bin on average) · {} trials · seed {} · {wall_s:.2} s wall on {threads} threads\n",
        args.balls,
        args.bins,
        trim(mean),
        args.trials,
        args.seed
    );
    let _ = writeln!(
        out,
        "{:<13}{:>20}{:>10}{:>14}{:>20}{:>10}{:>8}",
        "method", "max − mean ± se", "expected", "first order", "max − min ± se", "expected", "wall s"
    );
    for (o, wall) in rows {
        let expected = o.theory.expected.as_ref();
        let figure = |value: Option<f64>| value.map_or("–".into(), |v| format!("{v:.2}"));
        let order = match &o.theory.order {
            Some(order) if order.formula.contains("O(1)") => format!("{:.2} + O(1)", order.value),
            Some(order) => format!("{:.2}", order.value),
            None => "–".into(),
        };
        let _ = writeln!(
            out,
            "{:<13}{:>20}{:>10}{order:>14}{:>20}{:>10}{wall:>8.2}",
            o.method.describe(),
            plus_minus(o.max_minus_mean.mean, o.max_minus_mean.se),
            figure(expected.map(|e| e.max_minus_mean)),
            plus_minus(o.max_minus_min.mean, o.max_minus_min.se),
            figure(expected.map(|e| e.max_minus_min)),
        );
    }
    let _ = writeln!(out, "\nse: the standard error of the mean over the trials.");
    // Each source once, after the methods it speaks for.
    let mut notes: Vec<(String, Vec<String>)> = Vec::new();
    for (o, _) in rows {
        let texts = [
            o.theory.expected.as_ref().map(|e| format!("expected: {}", e.model)),
            o.theory.order.as_ref().map(|r| format!("first order: {}, {}", r.formula, r.source)),
        ];
        for text in texts.into_iter().flatten() {
            match notes.iter_mut().find(|(known, _)| *known == text) {
                Some((_, methods)) => methods.push(o.method.describe()),
                None => notes.push((text, vec![o.method.describe()])),
            }
        }
    }
    for (text, methods) in notes {
        let _ = writeln!(out, "{}: {text}", methods.join(", "));
    }
    out
}

fn plus_minus(mean: f64, se: f64) -> String {
    format!("{mean:.2} ± {se:.2}")
}

/// A number without a fraction when it has none.
fn trim(value: f64) -> String {
    if value.fract() == 0.0 {
        format!("{value:.0}")
    } else {
        format!("{value:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> Result<BinsArgs, String> {
        let words = format!("bins {text}").split_whitespace().map(String::from).collect::<Vec<_>>();
        match super::super::args::parse(&words)? {
            super::super::args::Command::Bins(bins) => Ok(bins),
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn defaults_are_the_seed_posts_experiment() {
        let args = parsed("").unwrap();
        assert_eq!((args.balls, args.bins, args.trials, args.seed), (1_000_000, 100, 200, 1));
        assert_eq!(args.methods, vec![Method::Random, Method::BestOf(2)]);
    }

    #[test]
    fn choices_and_methods_make_the_rows() {
        let args =
            parsed("--choices 1,2,3 --method best-of-d,random,round-robin,hash --balls 1_000").unwrap();
        let expected =
            [Method::Random, Method::BestOf(2), Method::BestOf(3), Method::RoundRobin, Method::Hash];
        assert_eq!(args.methods, expected);
        assert_eq!(args.balls, 1_000);
        assert_eq!(parsed("--method hash").unwrap().methods, vec![Method::Hash]);
    }

    #[test]
    fn the_figures_do_not_depend_on_the_threads() {
        let args = parsed("--balls 2000 --bins 10 --choices 1,3 --method best-of-d,hash --trials 9").unwrap();
        let outcomes = |threads| measure(&args, threads).into_iter().map(|(o, _)| o).collect::<Vec<_>>();
        assert_eq!(outcomes(1), outcomes(3));
    }

    /// The default run's bar, once random's 200 trials are done, stands at
    /// 1/11 of the work (random's 1 against best of 2's 10), where
    /// counting trials said half and so promised the rest in as long again.
    #[test]
    fn the_bar_weighs_each_trial_by_its_method_s_work() {
        let methods = parsed("--choices 1,2,4,8 --method best-of-d,round-robin,hash").unwrap().methods;
        let work: Vec<u64> = methods.iter().map(|&method| trial_work(method)).collect();
        assert_eq!(work, [1, 10, 18, 34, 1, 1]);
        let default = parsed("").unwrap().methods;
        let done = trial_work(default[0]) as f64
            / default.iter().map(|&method| trial_work(method)).sum::<u64>() as f64;
        assert_eq!(done, 1.0 / 11.0);
    }

    #[test]
    fn each_bad_input_names_its_flag_and_what_it_allows() {
        for (line, error) in [
            ("--bins 0", "--bins takes a whole number from 1 to 10000000, not `0`"),
            ("--balls 0", "--balls takes a whole number from 1 to 1000000000, not `0`"),
            ("--balls -5", "--balls takes a whole number"),
            ("--balls 1e6", "--balls takes a whole number"),
            ("--trials 1", "--trials takes a whole number from 2 to 100000 (a standard error needs two)"),
            ("--balls 100_000_001 --trials 100", "--balls × --trials is at most 10000000000"),
            ("--seed soon", "--seed takes a whole number from 0 to 9007199254740991"),
            (
                "--choices 0",
                "--choices takes whole numbers from 1 to 10 separated by commas (1,2,3), not `0`",
            ),
            ("--choices 1,,2", "--choices takes whole numbers"),
            ("--choices 11", "--choices takes whole numbers from 1 to 10"),
            ("--choices 5 --bins 3", "--choices: best of 5 draws 5 distinct bins, but --bins is 3"),
            (
                "--method shortest",
                "--method takes random, best-of-d, round-robin or hash, separated by commas, not `shortest`",
            ),
            ("--method hash --choices 2", "--choices belongs to --method best-of-d"),
            ("--balls", "--balls needs a value"),
            ("--fast", "unknown option `--fast` for bins"),
            ("default", "unexpected argument `default`"),
        ] {
            assert_eq!(parsed(line).map(|_| ()).unwrap_err().lines().count(), 1, "{line}");
            let given = parsed(line).map(|_| ()).unwrap_err();
            assert!(given.contains(error), "{line}: {given}");
        }
    }
}
