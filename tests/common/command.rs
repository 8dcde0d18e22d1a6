//! Running the `lbsim` command as a user would, from the repository's
//! folder, for the tests of the command line, and the files it reads.
#![allow(dead_code)]

use std::process::{Command, Output};

/// `lbsim` with `args`, its output and exit status.
pub fn lbsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lbsim"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run lbsim")
}

/// A file of its own in the temporary folder, removed when dropped.
pub struct TempFile(pub std::path::PathBuf);

impl TempFile {
    pub fn new(name: &str, text: &[u8]) -> TempFile {
        let path = std::env::temp_dir().join(format!("lbsim-test-{}-{name}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        TempFile(path)
    }

    pub fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}
