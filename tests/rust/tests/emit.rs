//! The crate's writer against every emit vector
//! (tests/conformance/vectors/emit.json, docs/sdk-contract.md section 6).

use std::path::PathBuf;

use errcat_rust_tests::record::to_value;
use errcat_rust_tests::request::{mend_surrogates, LONE};
use mitos_errors::{envelope_bytes, EmitInput, Value};
use serde_json::Value as Json;

fn vectors() -> Vec<Json> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../conformance/vectors/emit.json");
    let text = std::fs::read_to_string(&path).expect("the emit vectors");
    let data: Json = serde_json::from_str(&mend_surrogates(&text)).expect("emit.json is JSON");
    data["vectors"]
        .as_array()
        .expect("a list of vectors")
        .clone()
}

/// A vector's text, a lone surrogate as a character the sanitizer removes (as it removes the surrogate).
fn text(v: &Json) -> Option<String> {
    v.as_str().map(|s| s.replace(LONE, "\u{0}"))
}

fn context(v: &Json) -> Option<std::collections::BTreeMap<String, Value>> {
    match to_value(&serde_json::from_str(&v.to_string().replace(LONE, "\\u0000")).ok()?) {
        Value::Object(members) => Some(members),
        _ => None,
    }
}

#[test]
fn the_writer_gives_every_emit_vector_byte_for_byte() {
    let all = vectors();
    assert!(all.len() > 50, "{} emit vectors", all.len());
    let mut failed = Vec::new();
    for v in &all {
        let input = &v["input"];
        let (code, surface) = (text(&input["code"]), text(&input["surface"]));
        let (message, remediation) = (text(&input["message"]), text(&input["remediation"]));
        let (cause, request_id) = (
            text(&input["cause"]).unwrap_or_default(),
            text(&input["request_id"]),
        );
        let token = text(&input["token"]);
        let ctx = context(&input["context"]).unwrap_or_default();
        let got = envelope_bytes(&EmitInput {
            code: code.as_deref(),
            surface: surface.as_deref(),
            message: message.as_deref(),
            remediation: remediation.as_deref(),
            cause: &cause,
            context: Some(&ctx),
            request_id: request_id.as_deref(),
            token: token.as_deref(),
        });
        let want = &v["expected"];
        let headers: Vec<(String, String)> = want["headers"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|h| {
                (
                    h[0].as_str().unwrap_or("").to_owned(),
                    h[1].as_str().unwrap_or("").to_owned(),
                )
            })
            .collect();
        if Some(u64::from(got.status)) != want["status"].as_u64()
            || got.headers != headers
            || Some(got.body.as_str()) != want["body"].as_str()
        {
            failed.push(format!(
                "{}:\n  got  {:?} {:?} {}\n  want {}",
                v["name"], got.status, got.headers, got.body, want
            ));
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} emit vectors fail:\n{}",
        failed.len(),
        all.len(),
        failed.join("\n")
    );
}
