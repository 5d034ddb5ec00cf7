"""The Rust target: the whole ``rust-sdk/`` crate (generated declarations and the runtime copied in)."""
