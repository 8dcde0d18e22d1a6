//! `lbsim completions SHELL` and `lbsim man --out DIR`: the shells'
//! completion scripts and the man pages, made from the same declarations
//! as the help ([`super::command`]), so none of them can fall behind.

use super::command::Cli;
use super::output;
use clap::CommandFactory;
use clap_complete::Shell;
use std::path::Path;

/// `shell`'s completion script for lbsim.
pub fn completions(shell: Shell) -> String {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "lbsim", &mut script);
    String::from_utf8_lossy(&script).into_owned()
}

/// Writes lbsim.1 and lbsim-COMMAND.1 for each command into `dir`, made
/// if missing, and says where they went.
pub fn man_pages(dir: &Path) -> Result<(), String> {
    let shown = dir.display();
    std::fs::create_dir_all(dir).map_err(|e| format!("--out: cannot make {shown}: {e}"))?;
    clap_mangen::generate_to(Cli::command(), dir)
        .map_err(|e| format!("--out: cannot write into {shown}: {e}"))?;
    let pages = Cli::command().get_subcommands().filter(|c| c.get_name() != "help").count() + 1;
    output::note(format_args!("wrote {pages} man pages to {shown} (man -l {shown}/lbsim.1)\n"))
}
