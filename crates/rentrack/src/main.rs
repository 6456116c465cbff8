//! The `rentrack` command line.

mod cli;
mod connections;
mod demo;
mod healthcheck;
mod import;
mod serve;

/// mimalloc instead of glibc's malloc: allocation and freeing were a tenth of the
/// server's CPU under load (ARCHITECTURE.md, "Performance").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    let ran = cli::Cli::from_env()
        .and_then(|cli| tokio::runtime::Runtime::new()?.block_on(cli::run(cli)));
    match ran {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
