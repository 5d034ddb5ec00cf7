//! The emit vectors (tests/conformance/vectors/emit.json) as the writer's inputs.

use std::collections::BTreeMap;
use std::path::PathBuf;

use mitos_errors::{EmitInput, Value};
use serde_json::Value as Json;

use crate::record::to_value;
use crate::request::{mend_surrogates, LONE};

/// Every emit vector, in file order.
pub fn emit_vectors() -> Vec<Json> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../conformance/vectors/emit.json");
    let text = std::fs::read_to_string(&path).expect("the emit vectors");
    let data: Json = serde_json::from_str(&mend_surrogates(&text)).expect("emit.json is JSON");
    data["vectors"].as_array().cloned().unwrap_or_default()
}

/// A vector's text; a lone surrogate is a character the sanitizer removes, as it removes the surrogate.
fn text(v: &Json) -> Option<String> {
    v.as_str().map(|s| s.replace(LONE, "\u{0}"))
}

/// A vector's input, owned; [`OwnedInput::input`] lends it to the writer.
pub struct OwnedInput {
    code: Option<String>,
    surface: Option<String>,
    message: Option<String>,
    remediation: Option<String>,
    cause: String,
    context: BTreeMap<String, Value>,
    request_id: Option<String>,
    token: Option<String>,
}

impl OwnedInput {
    /// The writer's input.
    pub fn input(&self) -> EmitInput<'_> {
        EmitInput {
            code: self.code.as_deref(),
            surface: self.surface.as_deref(),
            message: self.message.as_deref(),
            remediation: self.remediation.as_deref(),
            cause: &self.cause,
            context: Some(&self.context),
            request_id: self.request_id.as_deref(),
            token: self.token.as_deref(),
        }
    }
}

/// The input of one vector.
pub fn input_of(vector: &Json) -> OwnedInput {
    let input = &vector["input"];
    let context = input["context"].to_string().replace(LONE, "\\u0000");
    let context = match serde_json::from_str(&context).map(|c: Json| to_value(&c)) {
        Ok(Value::Object(members)) => members,
        _ => BTreeMap::new(),
    };
    OwnedInput {
        code: text(&input["code"]),
        surface: text(&input["surface"]),
        message: text(&input["message"]),
        remediation: text(&input["remediation"]),
        cause: text(&input["cause"]).unwrap_or_default(),
        context,
        request_id: text(&input["request_id"]),
        token: text(&input["token"]),
    }
}

/// The status, headers (lower-case, sorted) and body a vector expects.
pub fn expected(vector: &Json) -> (u16, Vec<(String, String)>, String) {
    let want = &vector["expected"];
    let pair = |h: &Json| {
        let part = |i: usize| h[i].as_str().unwrap_or_default().to_owned();
        (part(0), part(1))
    };
    let headers = want["headers"]
        .as_array()
        .into_iter()
        .flatten()
        .map(pair)
        .collect();
    let status = want["status"]
        .as_u64()
        .and_then(|s| u16::try_from(s).ok())
        .unwrap_or(0);
    (
        status,
        headers,
        want["body"].as_str().unwrap_or_default().to_owned(),
    )
}
