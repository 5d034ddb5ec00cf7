//! The Rust crate's testee of the one test protocol and the helpers its
//! tests share (tests/README.md).

pub mod emit_cases;
pub mod record;
pub mod request;
