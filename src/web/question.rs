//! The question a view asks before its run (see `guess`, which keeps where
//! it stands): its words, a button per answer and one to skip, then in
//! their place the verdict, read again as the run goes on so that its
//! numbers stay those of the sentences beside it.

use super::dom::{self, Ids};
use super::guess::{Answer, Guess, Stage, RETIRED};
use super::twins::Sides;
use wasm_bindgen::JsValue;
use web_sys::{Element, HtmlElement};

/// Wall milliseconds between two readings of the verdict, as the
/// sentences are read back.
const VERDICT_INTERVAL_MS: f64 = 1_000.0;
/// What the box says between an answer and the run's point.
const RUNNING: &str = "Running to the point…";
/// The button that skips the guess.
const SKIP: &str = "Skip: just run it";

pub struct QuestionBox {
    group: HtmlElement,
    prompt: HtmlElement,
    answers: HtmlElement,
    /// A button per answer, in [`Answer::ALL`]'s order, then the skip.
    pub buttons: Vec<(HtmlElement, Option<Answer>)>,
    verdict: HtmlElement,
    last_verdict_ms: f64,
    /// What the page calls the view (its chapter's heading), which each
    /// button's name ends with: chapters 4, 5 and 6 each answer "random",
    /// and a screen reader or a script could not tell their buttons apart.
    view_name: Option<String>,
}

impl QuestionBox {
    /// Builds the box at the end of `parent`, hidden until it is shown,
    /// its buttons named with `view_name`.
    pub fn build(parent: &Element, ids: &Ids, view_name: Option<String>) -> Result<QuestionBox, JsValue> {
        let group: HtmlElement = dom::child(parent, "div", "question")?;
        let prompt_id = ids.of("question");
        dom::set_attributes(&group, &[("role", "group"), ("aria-labelledby", &prompt_id)])?;
        group.set_hidden(true);
        let prompt = dom::text_child(&group, "p", "question-prompt", "")?;
        prompt.set_id(&prompt_id);
        let answers: HtmlElement = dom::child(&group, "div", "answers")?;
        let mut buttons = Vec::new();
        for answer in Answer::ALL.map(Some).into_iter().chain([None]) {
            let class = if answer.is_some() { "answer" } else { "quiet skip-guess" };
            let button = dom::text_child(&answers, "button", class, SKIP)?;
            button.set_attribute("type", "button")?;
            buttons.push((button, answer));
        }
        let verdict = dom::text_child(&group, "p", "verdict", "")?;
        dom::set_attributes(&verdict, &[("aria-live", "polite"), ("aria-atomic", "true")])?;
        verdict.set_hidden(true);
        let question = QuestionBox {
            group,
            prompt,
            answers,
            buttons,
            verdict,
            last_verdict_ms: f64::NEG_INFINITY,
            view_name,
        };
        if let Some((skip, _)) = question.buttons.last() {
            question.name(skip, SKIP);
        }
        Ok(question)
    }

    /// Moves the box before `sibling` (the view's layout, under its
    /// sentences; or its charts, beside the picture).
    pub fn place_before(&self, sibling: &Element) -> Result<(), JsValue> {
        let parent = sibling.parent_node().ok_or("the view's layout has no parent")?;
        parent.insert_before(&self.group, Some(sibling))?;
        Ok(())
    }

    /// Shows the question as it stands, only its own answers, the runs
    /// named by `sides` (a view alone has none).
    pub fn show(&mut self, guess: &Guess, sides: Option<&Sides>) {
        self.group.set_hidden(false);
        // Answered, the question is set as plain words, no longer a call
        // to act, at the height it had while it waited, so that nothing
        // under it moves as its words shorten.
        let answered = !guess.waits();
        let style = self.prompt.style();
        let _ = match answered {
            true if !self.group.class_list().contains("answered") => {
                style.set_property("min-height", &format!("{}px", self.prompt.offset_height()))
            }
            true => Ok(()),
            false => style.remove_property("min-height").map(|_| ()),
        };
        let _ = self.group.class_list().toggle_with_force("answered", answered);
        self.prompt.set_text_content(Some(&guess.prompt()));
        for (button, answer) in &self.buttons {
            if let Some(answer) = answer {
                let words = answer.words(sides);
                button.set_text_content(Some(&words));
                self.name(button, &words);
                button.set_hidden(answer.topic() != guess.topic());
            }
        }
        self.answers.set_hidden(!guess.waits());
        self.last_verdict_ms = f64::NEG_INFINITY;
        // A verdict kept through a live change stays until it is read
        // again, with the change, at the next frame.
        if guess.keeps_verdict() {
            return;
        }
        let said = match guess.stage() {
            Stage::Asking => None,
            Stage::Answered(answer) => {
                Some(format!("You guessed {}. {RUNNING}", answer.words_in_sentence(sides)))
            }
            Stage::Skipped => Some(RUNNING.to_string()),
            Stage::Retired(_) => Some(format!("{RETIRED}.")),
        };
        self.say(said.as_deref());
    }

    /// Names `button`, which reads `words`, by them and the view: the
    /// name begins with the words seen, as a reader using speech says them.
    fn name(&self, button: &HtmlElement, words: &str) {
        if let Some(view) = &self.view_name {
            let _ = button.set_attribute("aria-label", &format!("{words} ({view})"));
        }
    }

    /// Whether the verdict is due to be read again at `now_ms`.
    pub fn verdict_due(&self, now_ms: f64) -> bool {
        now_ms - self.last_verdict_ms >= VERDICT_INTERVAL_MS
    }

    /// Whether the verdict's place says `words` now.
    pub fn says(&self, words: &str) -> bool {
        !self.verdict.hidden() && self.verdict.text_content().as_deref() == Some(words)
    }

    /// Shows the verdict, read at `now_ms`.
    pub fn show_verdict(&mut self, verdict: &str, now_ms: f64) {
        self.last_verdict_ms = now_ms;
        self.say(Some(verdict));
    }

    fn say(&self, words: Option<&str>) {
        self.verdict.set_hidden(words.is_none());
        if self.verdict.text_content().as_deref() != words {
            self.verdict.set_text_content(words);
            dom::fit_type(&self.verdict);
        }
    }
}
