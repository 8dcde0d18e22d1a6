//! What the explainer says about a running simulation, computed from its
//! summaries and never typed in: sentences that read the live numbers back
//! in words ([`readback`]), and the claims its prose makes, in a small
//! language that tests check against the same numbers ([`claims`]); and
//! when those sentences have their point to make ([`arrival`]).
//!
//! A section of the explainer runs its simulation beside a *versus* twin:
//! the same scenario and seed with a few settings changed (the policy,
//! say). Randomness is split by purpose, so both see the same arrivals and
//! the same work, and their difference is the effect of those settings.
//! Pure functions of [`Summary`](crate::Summary), so the browser and native
//! tests share them.

pub mod arrival;
pub mod claims;
pub mod readback;

pub use claims::{Claim, ClaimError, Verdict};
pub use readback::{Readback, Sentence};
