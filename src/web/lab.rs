//! What only the lab's module holds. The pages load one of two modules
//! compiled from these sources: `lbsim-web` (this package) for embeds and
//! the explainer (and balls into bins, one of the explainer's views), and
//! `lbsim-lab` (the package in `src/web-lab`, with the feature `lab`), which
//! index.html loads. The lab's tools
//! (capacity search, trace box and replays, membership tools, presets,
//! compare form, embed code) are built only with a [`Lab`] in hand, and without the feature there is none: the
//! compiler then knows every value holding one cannot exist and leaves out
//! the code that reaches it, so a reader of a post or of the explainer does
//! not download the lab.

use std::ops::{Deref, DerefMut};
use wasm_bindgen::JsValue;

/// Proof that this module holds the lab: one value with the feature `lab`,
/// no value at all without it.
#[cfg(feature = "lab")]
#[derive(Clone, Copy)]
pub struct Lab(());

/// Proof that this module holds the lab: without the feature `lab`, an
/// enum with no variant, so there is none.
#[cfg(not(feature = "lab"))]
#[derive(Clone, Copy)]
pub enum Lab {}

impl Lab {
    /// The proof, in the lab's module only.
    pub fn here() -> Option<Lab> {
        #[cfg(feature = "lab")]
        return Some(Lab(()));
        #[cfg(not(feature = "lab"))]
        return None;
    }

    /// The proof, or the message for a page that asked lbsim-web for a lab.
    pub fn needed() -> Result<Lab, &'static str> {
        Lab::here().ok_or(
            "data-lbsim=\"lab\": lbsim-web.js holds embeds and bins only (data-lbsim=\"embed\" or \"bins\"); \
             load lbsim-lab.js for the lab",
        )
    }
}

/// A part of a view only the lab has: it holds a [`Lab`], so without the
/// feature it cannot exist and the code using it goes.
#[derive(Clone, Copy)]
pub struct LabOnly<T> {
    part: T,
    lab: Lab,
}

impl<T> LabOnly<T> {
    /// Builds the part from `place` (where it goes) when there is a lab,
    /// and nothing otherwise.
    pub fn build<P>(
        place: Option<(Lab, P)>,
        build: impl FnOnce(P) -> Result<T, JsValue>,
    ) -> Result<Option<LabOnly<T>>, JsValue> {
        place.map(|(lab, place)| build(place).map(|part| LabOnly { part, lab })).transpose()
    }

    /// `part` with the proof this one was built with: a press on a lab's
    /// tool is lab-only as the tool is.
    pub fn with<U>(&self, part: U) -> LabOnly<U> {
        LabOnly { part, lab: self.lab }
    }
}

impl<T> Deref for LabOnly<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.part
    }
}

impl<T> DerefMut for LabOnly<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.part
    }
}
