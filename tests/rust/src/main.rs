//! The Rust crate's testee of the one test protocol (tests/README.md): one
//! JSON request per line on stdin, one answer per line on stdout, each an
//! error's record (testkit.record), `{"none": true}`, `{"threw": ...}` or
//! `{"text": ...}`.

use std::io::{BufRead, Write};

fn main() {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        let answer = errcat_rust_tests::request::answer(&line);
        if writeln!(out, "{answer}")
            .and_then(|()| out.flush())
            .is_err()
        {
            break;
        }
    }
}
