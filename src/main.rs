//! `lbsim`: the native command line of the simulation engine.

mod cli;

fn main() {
    // Output piped into `head` that stops reading ends the program quietly,
    // as for any Unix tool, rather than as a panic on the next write.
    #[cfg(target_os = "linux")]
    // SAFETY: restoring the default action of a signal, before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let argv: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(cli::main_with(&argv));
}
