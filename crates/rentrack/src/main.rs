//! The `rentrack` command line.

mod cli;
mod connections;
mod demo;
mod healthcheck;
mod import;
mod serve;

use clap::Parser;

/// mimalloc instead of glibc's malloc: allocation and freeing were a tenth of the
/// server's CPU under load (ARCHITECTURE.md, "Performance").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let cli = cli::Cli::parse();
    match cli::run(cli).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
