//! Tests of the `rentrack` binary itself: its command line, and a served process's
//! connections, timeouts and TLS. One test binary, one module per concern.

mod common;

mod cli;
mod connections;
