//! The crate's writer against every emit vector
//! (tests/conformance/vectors/emit.json, docs/sdk-contract.md section 6).

use errcat_rust_tests::emit_cases::{emit_vectors, expected, input_of};
use mitos_errors::envelope_bytes;

#[test]
fn the_writer_gives_every_emit_vector_byte_for_byte() {
    let all = emit_vectors();
    assert!(all.len() > 50, "{} emit vectors", all.len());
    let mut failed = Vec::new();
    for v in &all {
        let owned = input_of(v);
        let got = envelope_bytes(&owned.input());
        let (status, headers, body) = expected(v);
        if (got.status, &got.headers, &got.body) != (status, &headers, &body) {
            failed.push(format!(
                "{}: got {got:?}, want {status} {headers:?} {body}",
                v["name"]
            ));
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} fail:\n{}",
        failed.len(),
        all.len(),
        failed.join("\n")
    );
}
