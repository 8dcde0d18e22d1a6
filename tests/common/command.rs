//! Running the `lbsim` command as a user would, from the repository's
//! folder, for the tests of the command line.

use std::process::{Command, Output};

/// `lbsim` with `args`, its output and exit status.
pub fn lbsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lbsim"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run lbsim")
}
