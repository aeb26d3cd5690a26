//! The `juggler` binary: everything lives in the library and `cli`. Built for the web
//! (`scripts/web.sh`, wasm32) it is the page's application instead (`app::web`).

#[cfg(not(target_arch = "wasm32"))]
mod cli;

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    cli::main()
}

#[cfg(target_arch = "wasm32")]
fn main() {
    juggler::app::web::main()
}
