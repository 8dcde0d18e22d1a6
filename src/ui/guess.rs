//! A guess before the reveal: a view with a twin whose link asks (`ask=1`)
//! puts a question to the reader first ("which has the longer tail: random
//! or power of two?"), waits at the start until it is answered or skipped,
//! then runs to its point and says whether the guess held, with the
//! numbers. Predicting first is how Nicky Case's and Sam Rose's
//! explorables teach: a reader who has committed to an answer reads the
//! result as news about their own model of the world.
//!
//! A view alone (no twin) whose link asks puts the one question a single
//! run can answer by the reader's own hand: where the queue of a server
//! they slow will stand among the others (chapter 3's surprise: among the
//! shortest, for what it cannot take bounces off it). See `slowed`.
//!
//! Each answer about tails is a claim in the language of
//! [`crate::explain::claims`], checked against the run's summaries at the
//! reveal, and each about a slowed queue is read from the servers' samples,
//! so the verdict is computed from the run and never written down.

mod slowed;

pub use slowed::{Standing, SETTLE_S, SLOW_ONE};

use super::spread::Spread;
use super::twins::Sides;
use crate::explain::Claim;
use crate::format::{and_list, ms};
use crate::Summary;

/// Within this factor of each other, two tails of one run each are "about
/// the same"; the claims below spell it out (1/1.15 ≈ 0.87). A view that
/// runs its pair on more seeds grades by their dots instead (see
/// [`Guess::verdict_over_seeds`]).
const SAME_TAIL: &str = "within 15% of each other";

/// What the reveal says while the runs the reader watches have not yet
/// come to their point: that they share their requests and differ only
/// in the choice of server (two pictures showing different queues at
/// once read as a contradiction to a reader told "the same arrivals"),
/// and that the verdict follows.
pub const WATCHING: &str = "Watch both pictures: the same requests reach A and B at the same moments, \
and only how each picks a server differs, so their queues part.";

/// What the reveal says while the runs come to their point: [`WATCHING`]
/// and what the verdict waits for. Where the pair runs on more seeds
/// (`spread`), the verdict waits for all their dots, about 15 s after
/// the answer in chapter 4, which "once the runs have shown their point"
/// left unsaid.
pub fn watching_words(spread: Option<&Spread>) -> String {
    match spread {
        Some(spread) => {
            format!("{WATCHING} The verdict comes once all {} seeds' dots are in.", spread.count())
        }
        None => format!("{WATCHING} The verdict comes once the runs have shown their point."),
    }
}

/// The simulated seconds a verdict is read over, at least: the answers
/// are claims about a tail, the slowest 1% of waits, which over one
/// second after a warm-up rests on a few requests. Chapter 5 gave its
/// verdict one second after the answer ("over 1 simulated seconds"), once
/// its sentences were ready (`MEASURED_S` past its 2 s warm-up), when its
/// p99 ratio to random ran from 0.21 to 0.65 over ten seeds (its prose
/// says "less than half"); over five it runs from 0.25 to 0.42, and over
/// the 28 s its claim is checked over, from 0.22 to 0.37.
pub const VERDICT_SPAN_S: f64 = 5.0;

/// How far a view runs ahead unwatched (simulated seconds) before it is
/// drawn at its speed: a view that asks, only through its warm-up, which
/// no figure counts, so that the reader watches the run their verdict is
/// read from (chapter 4 ran 8 s ahead of its reader, who then met a
/// verdict about a run they never saw); any other up to `limit_s`, or
/// until its sentences have their point.
pub fn run_ahead_s(asks: bool, warmup_s: f64, limit_s: f64) -> f64 {
    match asks {
        true => warmup_s.min(limit_s),
        false => limit_s,
    }
}

/// What a question asks about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Topic {
    /// Which of two runs has the longer tail: a view with a twin.
    Tails,
    /// Where the queue of a server the reader slows will stand among the
    /// others': a view alone.
    SlowedQueue,
}

/// The answers a reader can give, in the order they are offered: the
/// first three answer [`Topic::Tails`], the last three
/// [`Topic::SlowedQueue`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The view's own run has the longer tail.
    Own,
    /// The twin has the longer tail.
    Twin,
    /// Neither, by more than [`SAME_TAIL`].
    Same,
    /// The slowed server's queue is longer than the others' (see
    /// [`Standing::answer`]).
    Longer,
    /// About as long as the others'.
    AsLong,
    /// Shorter than the others'.
    Shorter,
}

impl Answer {
    pub const ALL: [Answer; 6] =
        [Answer::Own, Answer::Twin, Answer::Same, Answer::Longer, Answer::AsLong, Answer::Shorter];

    /// The question the answer answers.
    pub fn topic(self) -> Topic {
        match self {
            Answer::Own | Answer::Twin | Answer::Same => Topic::Tails,
            Answer::Longer | Answer::AsLong | Answer::Shorter => Topic::SlowedQueue,
        }
    }

    /// The answer's words on its button; a run is named by `sides`, which
    /// a question about tails always has.
    pub fn words(self, sides: Option<&Sides>) -> String {
        match (self, sides) {
            (Answer::Own, Some(sides)) => sides.own.clone(),
            (Answer::Twin, Some(sides)) => sides.twin.clone(),
            (Answer::Own, None) => "This run".to_string(),
            (Answer::Twin, None) => "Its twin".to_string(),
            (Answer::Same, _) => "About the same".to_string(),
            (Answer::Longer, _) => "Longer than the others'".to_string(),
            (Answer::AsLong, _) => "About as long".to_string(),
            (Answer::Shorter, _) => "Shorter than the others'".to_string(),
        }
    }

    /// The answer's words inside a sentence ("You guessed power of two").
    /// Lower case for ASCII letters only: the sides' names are policy titles
    /// and authors' captions, and `str::to_lowercase` would bring Unicode's
    /// case tables into the browser's module (about 8 KB gzipped).
    pub fn words_in_sentence(self, sides: Option<&Sides>) -> String {
        self.words(sides).to_ascii_lowercase()
    }

    /// What the answer asserts of the run, as claims that all hold when
    /// it is right; none for an answer about a slowed queue, which no
    /// summary holds ([`Standing::answer`] reads it from the samples).
    fn claims(self) -> &'static str {
        match self {
            Answer::Own => "queue_p99 > 1.15 * queue_p99@versus",
            Answer::Twin => "queue_p99 < 0.87 * queue_p99@versus",
            Answer::Same => "queue_p99 > 0.87 * queue_p99@versus; queue_p99 < 1.15 * queue_p99@versus",
            Answer::Longer | Answer::AsLong | Answer::Shorter => "",
        }
    }

    /// Whether the answer is right about a run whose summary is `own`
    /// beside its twin's.
    pub fn holds(self, own: &Summary, twin: &Summary) -> bool {
        let claims = Claim::parse_all(self.claims()).unwrap_or_default();
        !claims.is_empty()
            && claims.iter().all(|claim| claim.check(own, Some(twin)).is_ok_and(|verdict| verdict.holds))
    }
}

/// Where the question stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The question is on screen; the run waits at its start.
    Asking,
    /// The reader chose an answer; the run goes to its point, then the
    /// verdict shows.
    Answered(Answer),
    /// The reader asked to see the run without guessing.
    Skipped,
    /// The reader answered, then changed the settings: the run on screen
    /// is no longer the one guessed about, so the guess is not graded
    /// against it.
    Retired(Answer),
}

/// What the verdict says once the guess is retired: grading it against a
/// run the reader never guessed about would read as a second, silent
/// question.
pub const RETIRED: &str = "You changed the settings: the run now differs from the one you guessed about";

/// A view's question: its words, what it asks about and where it stands.
#[derive(Clone, Debug, PartialEq)]
pub struct Guess {
    prompt: String,
    topic: Topic,
    stage: Stage,
    /// The server the reader slowed and when (simulated seconds), for a
    /// question about a slowed queue.
    slowed: Option<(usize, f64)>,
    /// The verdict on the slowed queue once given, which stands as given:
    /// read again each second, its figures changed under a reader reading
    /// them (reader 19), the run going on past the point it makes.
    slowed_verdict: Option<String>,
    /// The verdict's first words as given before the reader changed both
    /// runs live, and those changes in words (see [`Guess::changed_live`]).
    kept: Option<(String, Vec<String>)>,
}

/// A live change the reader made to both runs, in the words a verdict
/// says it with: "server 3 slowed in both runs", or, `slowed` false,
/// "server 3 given back its speed".
pub fn live_change(server: usize, slowed: bool) -> String {
    match slowed {
        true => format!("server {server} slowed in both runs"),
        false => format!("server {server} given back its speed"),
    }
}

impl Guess {
    /// The question a view asks, when its link asks: with a twin to
    /// compare with, which tail is longer; alone, where the queue of a
    /// server the reader slows will stand. In `question`'s words, or else
    /// the plain question.
    pub fn for_view(ask: bool, question: &str, sides: Option<&Sides>) -> Option<Guess> {
        if !ask {
            return None;
        }
        let (topic, plain) = match sides {
            Some(sides) => {
                let Sides { own, twin } = sides.in_prose();
                let plain = format!(
                    "Which has the longer tail, the slowest 1% of waits in the queue: {own} or {twin}?"
                );
                (Topic::Tails, plain)
            }
            None => (Topic::SlowedQueue, slowed::PLAIN_QUESTION.to_string()),
        };
        let prompt = match question.trim() {
            "" => plain,
            words => words.to_string(),
        };
        Some(Guess { prompt, topic, stage: Stage::Asking, slowed: None, slowed_verdict: None, kept: None })
    }

    /// The question's words as they stand: while it waits, as asked; once
    /// answered or skipped, without a lead that says it waits ("Before it
    /// plays on: you will click…" stayed bold over the run it had let
    /// play, and read as a question still pending to chapter 3's reader).
    pub fn prompt(&self) -> String {
        let lead = self.prompt.strip_prefix("Before ").and_then(|rest| rest.split_once(": "));
        match (self.waits(), lead) {
            (false, Some((_, asked))) => {
                let mut letters = asked.chars();
                letters.next().map(|first| first.to_ascii_uppercase()).into_iter().chain(letters).collect()
            }
            _ => self.prompt.clone(),
        }
    }

    pub fn topic(&self) -> Topic {
        self.topic
    }

    /// The answers offered, in order.
    pub fn answers(&self) -> impl Iterator<Item = Answer> + '_ {
        Answer::ALL.into_iter().filter(|answer| answer.topic() == self.topic)
    }

    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// Whether the run must wait at its start: the question is unanswered.
    pub fn waits(&self) -> bool {
        self.stage == Stage::Asking
    }

    /// Whether the view runs through its warm-up while the question
    /// waits, and waits there: a question about a slowed queue, whose
    /// prose tells the reader they meet the run settled, past its warm-up
    /// (chapter 3's reader saw empty rows, 0/10, and a chart of 0 to 2 s
    /// beside those words). Nothing is slowed before the reader clicks, so
    /// the settled run tells nothing of the answer; a question about tails
    /// waits at the start, where its two runs are still the same.
    pub fn shows_setup(&self) -> bool {
        self.waits() && self.topic == Topic::SlowedQueue
    }

    /// The reader answers; a second answer changes nothing, so that the
    /// verdict is about the guess made before the run.
    pub fn answer(&mut self, answer: Answer) {
        if self.waits() && answer.topic() == self.topic {
            self.stage = Stage::Answered(answer);
        }
    }

    pub fn skip(&mut self) {
        if self.waits() {
            self.stage = Stage::Skipped;
        }
    }

    /// Whether the reveal still says [`WATCHING`] of a run whose summary is
    /// `own`: the reader answered or skipped, and the run has measured less
    /// than [`VERDICT_SPAN_S`]. A retired guess is graded against nothing,
    /// so it says so at once.
    pub fn watching(&self, own: &Summary) -> bool {
        matches!(self.stage, Stage::Answered(_) | Stage::Skipped) && own.measured_s < VERDICT_SPAN_S
    }

    /// The run changed (a control, a slowed server) after the reader
    /// answered: the guess was about the run before, and retires. A
    /// question still waiting, or skipped, has no guess to retire. A
    /// verdict kept through live changes goes too: the run it told of
    /// is gone (chapter 5's, kept through a slowed server, went on saying
    /// "Then server 4 slowed in both runs" of a run started over with
    /// three choices and no server slowed).
    pub fn settings_changed(&mut self) {
        self.kept = None;
        if let Stage::Answered(answer) = self.stage {
            self.stage = Stage::Retired(answer);
        }
    }

    /// The reader changed both runs live (`change`, in words: see
    /// [`live_change`]), whose summaries just before were `own` and
    /// `twin`. Once the verdict is given, it stays as it was, and says
    /// what changed since (a click after chapter 5's verdict replaced it
    /// with "You changed the settings", and the reader lost the answer
    /// they had just been given); before, the guess retires, as for any
    /// change.
    pub fn changed_live(&mut self, change: String, sides: &Sides, own: &Summary, twin: &Summary) {
        let given = matches!(self.stage, Stage::Answered(_) | Stage::Skipped) && !self.watching(own);
        if self.kept.is_none() && given {
            self.kept = Some((self.first_words(sides, own, twin), Vec::new()));
        }
        match &mut self.kept {
            Some((_, changes)) => changes.push(change),
            None => self.settings_changed(),
        }
    }

    /// Whether the verdict given stays through live changes (see
    /// [`Guess::changed_live`]).
    pub fn keeps_verdict(&self) -> bool {
        self.kept.is_some()
    }

    /// What the reveal says of a run whose summary is `own` beside its
    /// twin's: whether the guess held (or, skipped, the answer; retired,
    /// that the run changed), with the numbers; nothing while the
    /// question waits. Once kept through live changes, the verdict's
    /// first words as given, what changed since, and the numbers now.
    pub fn verdict(&self, sides: &Sides, own: &Summary, twin: &Summary) -> Option<String> {
        let first = match (self.stage, &self.kept) {
            (Stage::Asking, _) => return None,
            (_, Some((given, changes))) => format!("{given}. Then {}:", and_list(changes.iter().cloned())),
            _ => format!("{};", self.first_words(sides, own, twin)),
        };
        let in_prose = sides.in_prose();
        Some(format!(
            "{first} over {}, p99 queue time is {} with {} against {} with {}.",
            simulated_seconds(own.measured_s),
            ms(own.queue_ms.p99),
            in_prose.own,
            ms(twin.queue_ms.p99),
            in_prose.twin
        ))
    }

    /// A verdict's first words, before its numbers: whether the guess held
    /// (or, skipped, the answer; retired, that the run changed).
    fn first_words(&self, sides: &Sides, own: &Summary, twin: &Summary) -> String {
        let in_prose = sides.in_prose();
        let outcome = |answer: Answer| match answer {
            Answer::Own => format!("{} has the longer tail", in_prose.own),
            Answer::Twin => format!("{} has the longer tail", in_prose.twin),
            // Said where the reader looks as the reveal comes: chapter 4's
            // explanation of chance sat below the fold at 1440 × 900.
            _ => format!("the two are {SAME_TAIL}, too close for one run to tell from chance"),
        };
        let right = Answer::ALL.into_iter().find(|answer| answer.holds(own, twin));
        match (self.stage, right) {
            (Stage::Retired(_), _) => RETIRED.to_string(),
            (_, None) => "The two tails sit on the line between answers".to_string(),
            (_, Some(right)) => self.opening(right, &outcome(right), Some(&in_prose)).unwrap_or_default(),
        }
    }

    /// Whether the reveal waits for the dots of a view that runs its pair
    /// on more seeds (`spread`), to grade the guess by them: answered or
    /// skipped, until they are all in. A retired guess is graded by
    /// nothing, and says so at once.
    pub fn awaits_seeds(&self, spread: Option<&Spread>) -> bool {
        matches!(self.stage, Stage::Answered(_) | Stage::Skipped)
            && spread.is_some_and(|spread| !spread.done())
    }

    /// The verdict of a view that runs its pair on more seeds, graded by
    /// their dots once they are all in and said in the words of the
    /// sentence under them: chapter 4's verdict, graded on one run, said
    /// "within 15% of each other" over dots 0.96 to 1.05 times one
    /// another, two yardsticks (reader 14). `None` while the question
    /// waits, once the guess is retired, or without dots to grade by.
    pub fn verdict_over_seeds(&self, sides: &Sides, spread: &Spread) -> Option<String> {
        let right = spread.longer_tail().filter(|_| !matches!(self.stage, Stage::Retired(_)))?;
        let in_prose = sides.in_prose();
        let outcome = match right {
            Answer::Own => format!("{} has the longer tail", in_prose.own),
            Answer::Twin => format!("{} has the longer tail", in_prose.twin),
            _ => "neither tail is longer by more than chance".to_string(),
        };
        let first = self.opening(right, &outcome, Some(&in_prose))?;
        let (range, average) = spread.ratio_words(sides);
        let average = average.map(|average| format!(", {average}")).unwrap_or_default();
        Some(format!(
            "{first}: over the {} seeds dotted under the pictures, {range}{average}.",
            spread.dots().len()
        ))
    }

    /// The first words of a verdict whose answer turned out `right`, said
    /// as `outcome`: whether the guess held, or (skipped) the answer, or
    /// (retired) that the run changed; `None` while the question waits.
    fn opening(&self, right: Answer, outcome: &str, sides: Option<&Sides>) -> Option<String> {
        Some(match self.stage {
            Stage::Asking => return None,
            Stage::Retired(_) => format!("{RETIRED}; {outcome}"),
            Stage::Answered(guess) if guess == right => format!("Your guess held: {outcome}"),
            Stage::Answered(guess) => {
                format!("Your guess, {}, did not hold: {outcome}", guess.words_in_sentence(sides))
            }
            Stage::Skipped => format!("The answer: {outcome}"),
        })
    }
}

/// A span of simulated time in whole seconds, as a sentence says it: "1
/// simulated second", "10 simulated seconds".
fn simulated_seconds(seconds: f64) -> String {
    match format!("{seconds:.0}") {
        one if one == "1" => "1 simulated second".to_string(),
        count => format!("{count} simulated seconds"),
    }
}

#[cfg(test)]
mod tests;
