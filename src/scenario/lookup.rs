//! Finding a field by the name a person typed: a near miss (a dropped
//! letter, a slip or two) is named in the error, as "did you mean".

use super::fields::{Field, FIELDS};
use super::ScenarioError;

/// Looks a field up by name, suggesting a near miss when there is one.
pub fn find(key: &str) -> Result<&'static Field, ScenarioError> {
    FIELDS.iter().find(|f| f.key == key).ok_or_else(|| ScenarioError::UnknownField {
        field: key.to_string(),
        // Dropped letters are the commonest slip, so a field that contains the
        // typo as a subsequence ranks first; then the nearest by edit distance.
        suggestion: FIELDS
            .iter()
            .map(|f| (!is_subsequence(key, f.key), edit_distance(key, f.key), f.key))
            .filter(|(_, d, _)| *d <= 3)
            .min()
            .map(|(_, _, k)| k),
    })
}

fn is_subsequence(short: &str, long: &str) -> bool {
    let mut letters = long.chars();
    short.chars().all(|c| letters.any(|l| l == c))
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1).min(row[j] + 1).min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_a_near_miss() {
        for (typo, meant) in
            [("polcy", Some("policy")), ("service_mean", Some("service_mean_ms")), ("colour", None)]
        {
            match find(typo) {
                Err(ScenarioError::UnknownField { suggestion, .. }) => assert_eq!(suggestion, meant),
                other => panic!("{:?}", other.map(|f| f.key)),
            }
        }
    }
}
