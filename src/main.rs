//! The `juggler` binary: everything lives in the library and `cli`.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
