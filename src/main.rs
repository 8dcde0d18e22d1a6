//! `lbsim`: the native command line of the simulation engine.

mod cli;

fn main() {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(cli::main_with(&argv));
}
