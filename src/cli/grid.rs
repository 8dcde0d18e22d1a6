//! `lbsim sweep` over a grid: several `--set key=a,b,c` lists, their
//! cartesian product (the first list varying slowest, the last fastest),
//! each point under every seed of `--seeds` (seeds fastest of all). Rows
//! are numbered from 0 in that order; `--shard I/N` runs the I-th of N
//! contiguous blocks of rows (rows ⌊(I−1)R/N⌋ to ⌊IR/N⌋ − 1 of R), so the N
//! shards' outputs, concatenated in shard order, are the unsharded output
//! byte for byte. A JSON line holds no wall-clock time for that reason.

use super::args::RunArgs;
use super::output;
use super::parallel;
use super::report;
use super::runner::{load, simulate};
use lbsim::scenario::{echo, MAX_SEED};

/// The most seeds one `--seeds` may give.
const MOST_SEEDS: u64 = 1_000_000;

/// The I-th of N shares of a grid's rows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// `I/N`, from 1/1 to N/N.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let refused = || {
            format!("--shard takes I/N, a share I from 1 to N of N shares (such as 2/8), not {}", echo(text))
        };
        let (index, count) = text.split_once('/').ok_or_else(refused)?;
        let (index, count) = (
            index.trim().parse::<u64>().map_err(|_| refused())?,
            count.trim().parse::<u64>().map_err(|_| refused())?,
        );
        if index == 0 || index > count {
            return Err(refused());
        }
        Ok(Shard { index, count })
    }

    /// This share's rows of `rows`: a contiguous block.
    fn rows(self, rows: u64) -> std::ops::Range<u64> {
        let bound = |i: u64| (u128::from(i) * u128::from(rows) / u128::from(self.count)) as u64;
        bound(self.index - 1)..bound(self.index)
    }
}

/// `--seeds`: `1-50`, `1,2,5` or both (`1-3,9`), in the order given.
pub fn parse_seeds(text: &str) -> Result<Vec<u64>, String> {
    let refused = || {
        format!(
            "--seeds takes seeds from 0 to {MAX_SEED} as a range or a list, such as 1-50 or 1,2,5, not {}",
            echo(text)
        )
    };
    let mut seeds = Vec::new();
    for part in text.split(',') {
        let number = |t: &str| t.trim().parse::<u64>().ok().filter(|s| *s <= MAX_SEED).ok_or_else(refused);
        let (first, last) = match part.split_once('-') {
            Some((first, last)) => (number(first)?, number(last)?),
            None => (number(part)?, number(part)?),
        };
        if first > last || seeds.len() as u64 + (last - first + 1) > MOST_SEEDS {
            return Err(if first > last {
                refused()
            } else {
                format!("--seeds gives more than {MOST_SEEDS} seeds; split the study into several sweeps")
            });
        }
        seeds.extend(first..=last);
    }
    Ok(seeds)
}

/// Whether a sweep is a grid: more than one list, seeds or a shard.
pub fn is_grid(run: &RunArgs) -> bool {
    run.sets.iter().filter(|(_, v)| v.contains(',')).count() > 1 || run.seeds.is_some() || run.shard.is_some()
}

/// Runs this shard's rows of the grid, printing each as it is done: a
/// JSON line each with `--json`, else a table (its header from shard 1 only).
pub fn sweep(run: &RunArgs) -> Result<(), String> {
    let lists: Vec<(&str, Vec<&str>)> = run
        .sets
        .iter()
        .filter(|(_, v)| v.contains(','))
        .map(|(k, v)| (k.as_str(), v.split(',').map(str::trim).collect()))
        .collect();
    for (at, (key, _)) in lists.iter().enumerate() {
        if lists[..at].iter().any(|(other, _)| other == key) {
            return Err(format!("sweep: `{key}` has two lists of values; give it one"));
        }
    }
    if run.seeds.is_some() && run.sets.iter().any(|(k, _)| k == "seed") {
        return Err("--seeds and --seed (or --set seed=...) both set the seed; give one".into());
    }
    let points: usize = lists.iter().map(|(_, values)| values.len()).product();
    // Every point is checked before any runs, so a typo late in a list
    // does not cost the runs before it.
    let scenarios =
        (0..points).map(|point| load(run, &values_at(&lists, point))).collect::<Result<Vec<_>, _>>()?;
    let seeds = run.seeds.clone().unwrap_or_default();
    let per_point = seeds.len().max(1) as u64;
    let shard = run.shard.unwrap_or(Shard { index: 1, count: 1 });
    let rows: Vec<u64> = shard.rows(points as u64 * per_point).collect();
    let trace = provenance(run)?;
    if !run.json && shard.index == 1 {
        let keys: Vec<&str> = lists.iter().map(|(key, _)| *key).chain(["seed"]).collect();
        output::out(sweep_trace(&trace))?;
        output::line(report::sweep_header(&keys.join(" ")))?;
    }
    let cores = parallel::cores();
    for block in rows.chunks(cores) {
        let done = parallel::map_on_cores(block.len(), cores, |at| {
            let row = block[at];
            let mut scenario = scenarios[(row / per_point) as usize].clone();
            if let Some(seed) = seeds.get((row % per_point) as usize) {
                scenario.seed = *seed;
            }
            simulate(&scenario, run.trace.as_ref()).map(|(sim, _)| (scenario.seed, sim.summary()))
        });
        for (row, outcome) in block.iter().zip(done) {
            let (seed, summary) = outcome?;
            let point = (*row / per_point) as usize;
            let values = values_at(&lists, point);
            if run.json {
                let settings: serde_json::Map<String, serde_json::Value> =
                    values.iter().map(|(k, v)| (k.to_string(), v.to_string().into())).collect();
                let mut line =
                    serde_json::json!({ "row": row, "settings": settings, "seed": seed, "summary": summary });
                if let Some(trace) = &trace {
                    line["trace"] = trace.clone();
                }
                output::line(line)?;
            } else {
                let label: Vec<String> =
                    values.iter().map(|(_, v)| v.to_string()).chain([seed.to_string()]).collect();
                output::line(report::sweep_row(&label.join(" "), &summary))?;
            }
        }
    }
    Ok(())
}

/// What a sweep's rows record of the trace they replay, if they do: its
/// file, speed, looping and hash.
pub fn provenance(run: &RunArgs) -> Result<Option<serde_json::Value>, String> {
    run.trace.as_ref().map(|trace| trace.provenance()).transpose()
}

/// The line above a sweep's table over a trace: which trace, how fast,
/// and its hash; nothing without one.
pub fn sweep_trace(trace: &Option<serde_json::Value>) -> String {
    match trace {
        Some(t) => format!(
            "replaying {} at speed {}{} (hash {})\n",
            t["file"].as_str().unwrap_or_default(),
            t["speed"],
            if t["looped"] == true { ", looped" } else { "" },
            t["hash"].as_str().unwrap_or_default()
        ),
        None => String::new(),
    }
}

/// The setting of each list at grid point `point` (the last list fastest).
fn values_at<'a>(lists: &[(&'a str, Vec<&'a str>)], mut point: usize) -> Vec<(&'a str, &'a str)> {
    let mut values = Vec::with_capacity(lists.len());
    for (key, list) in lists.iter().rev() {
        values.push((*key, list[point % list.len()]));
        point /= list.len();
    }
    values.reverse();
    values
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_contiguous_blocks_that_cover_every_row_once() {
        for count in [1, 3, 7] {
            let mut covered = Vec::new();
            for index in 1..=count {
                covered.extend(Shard { index, count }.rows(20));
            }
            assert_eq!(covered, (0..20).collect::<Vec<_>>());
        }
        assert_eq!(Shard { index: 2, count: 3 }.rows(20), 6..13);
        assert_eq!(Shard { index: 5, count: 7 }.rows(2), 1..1);
    }

    #[test]
    fn parses_shards_and_seeds() {
        assert_eq!(Shard::parse("2/8"), Ok(Shard { index: 2, count: 8 }));
        for bad in ["0/3", "4/3", "1", "a/b", "1/0"] {
            assert!(Shard::parse(bad).unwrap_err().starts_with("--shard takes I/N"), "{bad}");
        }
        assert_eq!(parse_seeds("1-3,9"), Ok(vec![1, 2, 3, 9]));
        assert_eq!(parse_seeds("5"), Ok(vec![5]));
        assert!(parse_seeds("3-1").unwrap_err().starts_with("--seeds takes seeds"));
        assert!(parse_seeds("1-2000000").unwrap_err().contains("more than 1000000 seeds"));
        assert!(parse_seeds("x").is_err());
    }

    #[test]
    fn the_last_list_varies_fastest() {
        let lists = vec![("policy", vec!["random", "power-of-d"]), ("load", vec!["0.5", "0.7", "0.9"])];
        assert_eq!(values_at(&lists, 0), vec![("policy", "random"), ("load", "0.5")]);
        assert_eq!(values_at(&lists, 2), vec![("policy", "random"), ("load", "0.9")]);
        assert_eq!(values_at(&lists, 3), vec![("policy", "power-of-d"), ("load", "0.5")]);
    }
}
