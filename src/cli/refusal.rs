//! What clap refuses, said as lbsim says every refusal: one line that
//! names the option, echoes the value given (cut short when long) and says
//! what is allowed, or which command an option belongs to.

use super::command::Cli;
use clap::error::{ContextKind, ContextValue, Error, ErrorKind};
use clap::CommandFactory;
use lbsim::format::{and_list, or_list};
use lbsim::scenario::echo;

/// `error` as one line, for the command line `argv` (without `lbsim`).
pub fn one_line(error: &Error, argv: &[String]) -> String {
    let cli = Cli::command();
    let command = argv.first().and_then(|word| cli.find_subcommand(word)).map(|c| c.get_name().to_string());
    let arg = text(error, ContextKind::InvalidArg).unwrap_or_default();
    // clap names an option with its value's name (`--seed <N>`) and an
    // argument in brackets (`<SHELL>`): each is said by its name alone.
    let flag =
        arg.split_whitespace().next().unwrap_or_default().trim_start_matches('<').trim_end_matches('>');
    let value = text(error, ContextKind::InvalidValue).unwrap_or_default();
    match error.kind() {
        ErrorKind::ValueValidation => {
            let reason = std::error::Error::source(error).map(ToString::to_string).unwrap_or_default();
            match reason.starts_with(flag) || arg.starts_with('<') {
                true => reason,
                false => format!("{flag}: {reason}"),
            }
        }
        ErrorKind::InvalidValue if value.is_empty() => format!("{flag} needs a value"),
        ErrorKind::InvalidValue => {
            let allowed = or_list(texts(error, ContextKind::ValidValue));
            format!("{flag} takes {allowed}, not {}", echo(&value))
        }
        ErrorKind::UnknownArgument => unknown(&cli, &arg, command.as_deref(), error),
        ErrorKind::InvalidSubcommand => {
            let given = text(error, ContextKind::InvalidSubcommand).unwrap_or_default();
            format!("unknown command {}; expected {}", echo(&given), or_list(commands(&cli)))
                + &did_you_mean(&texts(error, ContextKind::SuggestedSubcommand))
        }
        ErrorKind::MissingRequiredArgument => {
            let missing = texts(error, ContextKind::InvalidArg);
            let who = command.unwrap_or_else(|| "lbsim".into());
            match missing.iter().any(|m| m == "<SCENARIO>") {
                true => format!(
                    "{who} needs a SCENARIO: a TOML file, a preset's name (`lbsim presets`), or `default` for every field at its default"
                ),
                false => format!("{who} needs {}", and_list(missing)),
            }
        }
        ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            format!("a command is needed: {} (`lbsim --help` says what each does)", or_list(commands(&cli)))
        }
        ErrorKind::ArgumentConflict => match text(error, ContextKind::PriorArg) {
            Some(prior) if prior == arg => format!("{flag} is given twice; give it once"),
            Some(prior) => {
                format!("{flag} cannot be used with {}", prior.split_whitespace().next().unwrap_or_default())
            }
            None => format!("{flag} cannot be used with the other options given"),
        },
        _ => {
            let rendered = error.to_string();
            let first = rendered.lines().next().unwrap_or_default();
            first.strip_prefix("error: ").unwrap_or(first).to_string()
        }
    }
}

/// An option no command of that name takes, or a word past the last one
/// a command takes: which commands take the option, or what to try.
fn unknown(cli: &clap::Command, arg: &str, command: Option<&str>, error: &Error) -> String {
    let here = command.unwrap_or("lbsim");
    let Some(long) = arg.strip_prefix("--") else {
        if arg.starts_with('-') {
            return format!("unknown option {} for {here}", echo(arg));
        }
        let mut takes: Vec<String> = command
            .and_then(|name| cli.find_subcommand(name))
            .map(|c| c.get_positionals().map(|p| p.get_id().to_string().to_uppercase()).collect())
            .unwrap_or_default();
        takes.push("options".into());
        return format!("unexpected argument {}: {here} takes {}", echo(arg), and_list(takes));
    };
    let name = long.split('=').next().unwrap_or(long);
    let takers: Vec<String> = cli
        .get_subcommands()
        .filter(|c| c.get_arguments().any(|a| a.get_long() == Some(name)))
        .map(|c| c.get_name().to_string())
        .collect();
    match takers.as_slice() {
        [] => {
            format!("unknown option {} for {here}", echo(&format!("--{name}")))
                + &did_you_mean(&texts(error, ContextKind::SuggestedArg))
        }
        takers => format!("--{name} belongs to {}, not {here}", and_list(takers.to_vec())),
    }
}

/// The commands a user may type, in the order of the help.
fn commands(cli: &clap::Command) -> Vec<String> {
    cli.get_subcommands().map(|c| c.get_name().to_string()).filter(|name| name != "help").collect()
}

fn did_you_mean(suggestions: &[String]) -> String {
    match suggestions.first() {
        Some(suggestion) => format!("; did you mean `{}`?", suggestion.trim()),
        None => String::new(),
    }
}

fn text(error: &Error, kind: ContextKind) -> Option<String> {
    match error.get(kind)? {
        ContextValue::String(text) => Some(text.clone()),
        ContextValue::Strings(texts) => texts.first().cloned(),
        _ => None,
    }
}

fn texts(error: &Error, kind: ContextKind) -> Vec<String> {
    match error.get(kind) {
        Some(ContextValue::String(text)) => vec![text.clone()],
        Some(ContextValue::Strings(texts)) => texts.clone(),
        _ => Vec::new(),
    }
}
