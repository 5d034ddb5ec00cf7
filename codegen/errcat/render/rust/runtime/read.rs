//! From a failed response to an [`ApiError`] (docs/sdk-contract.md section 1).

use std::collections::BTreeMap;

use crate::catalogue::{CONTEXT_FIELDS, CONTEXT_MAX_KEYS, ERROR_BODY_MAX_BYTES, JSON_MAX_DEPTH};
use crate::code::Code;
use crate::error::{ApiError, Context};
pub use crate::headers::Headers;
use crate::headers::{bounded, header, header_delay, now_ms};
use crate::sanitize::{sanitize_with, surrogate_stand_in, token_forms};
use crate::value::{parse, too_deep, Value};
use crate::wire::{fallback_code, refines_walk, WireCode};

const MAX_SAFE: f64 = 9_007_199_254_740_991.0;

/// The envelope's `error` object, when the body holds an envelope.
fn envelope(body: &[u8]) -> Option<BTreeMap<String, Value>> {
    let bounded = &body[..body.len().min(ERROR_BODY_MAX_BYTES as usize)];
    let text = String::from_utf8_lossy(bounded);
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(&text);
    let first = text.trim_start_matches([' ', '\t', '\n', '\r']);
    if !first.starts_with('{') || too_deep(text, JSON_MAX_DEPTH as usize) {
        return None;
    }
    match parse(text, surrogate_stand_in())? {
        Value::Object(mut top) => match top.remove("error")? {
            Value::Object(error) => Some(error),
            _ => None,
        },
        _ => None,
    }
}

fn member_text(error: &BTreeMap<String, Value>, name: &str, forms: &[String]) -> String {
    match error.get(name) {
        Some(Value::String(s)) => sanitize_with(s, forms),
        _ => String::new(),
    }
}

fn context_value(value: &Value, forms: &[String]) -> Option<Value> {
    match value {
        Value::String(s) => Some(Value::String(sanitize_with(s, forms))),
        Value::Bool(_) | Value::Null => Some(value.clone()),
        Value::Number(n) if n.is_finite() && (n.fract() != 0.0 || n.abs() <= MAX_SAFE) => {
            Some(value.clone())
        }
        _ => None,
    }
}

fn context_of(raw: &BTreeMap<String, Value>, forms: &[String]) -> Context {
    let many = raw.len() > CONTEXT_MAX_KEYS as usize;
    raw.iter()
        .filter(|(key, _)| !many || CONTEXT_FIELDS.contains(&key.as_str()))
        .filter(|(key, _)| !key.is_empty() && sanitize_with(key, forms) == **key)
        .filter_map(|(key, value)| Some((key.clone(), context_value(value, forms)?)))
        .collect()
}

/// Step 6's request id (the header's, else the envelope's) and retry delay
/// (the context's, else the headers').
fn from_headers(
    err: &mut ApiError,
    error: Option<&BTreeMap<String, Value>>,
    headers: &Headers,
    forms: &[String],
) {
    let header_id = header(headers, "x-request-id").map(|id| sanitize_with(&id, forms));
    err.request_id = header_id.filter(|id| !id.is_empty()).or_else(|| {
        let id = error
            .as_ref()
            .map(|e| member_text(e, "request_id", forms))?;
        (!id.is_empty()).then_some(id)
    });
    err.retry_after_ms = match err.context.get("retry_after_ms") {
        Some(Value::Number(ms)) if *ms >= 0.0 && ms.fract() == 0.0 => Some(bounded(*ms as u64)),
        _ => header_delay(headers, now_ms()),
    };
}

/// The error of a failed response: its `status`, `headers` and `body`
/// bytes (read no further than the catalogue's byte cap), with every
/// server text sanitized and every form of `token` redacted. Never fails.
pub fn error_from_body(
    body: &[u8],
    status: Option<u16>,
    headers: &Headers,
    token: Option<&str>,
) -> ApiError {
    let forms = token.map(token_forms).unwrap_or_default();
    let error = envelope(body);
    let code = error
        .as_ref()
        .map(|e| member_text(e, "code", &forms))
        .unwrap_or_default();
    let error = error.filter(|_| !code.is_empty());
    let (wire, class) = match &error {
        None => (
            WireCode::Known(fallback_code(status)),
            Some(fallback_code(status)),
        ),
        Some(e) => match code.parse::<Code>() {
            Ok(known) => (WireCode::Known(known), Some(known)),
            Err(_) => (
                WireCode::Unknown(code.clone()),
                refines_walk(e.get("refines")),
            ),
        },
    };
    let mut err = match class {
        Some(c) => ApiError::new(c),
        None => ApiError::for_code("", status),
    };
    err.code = wire;
    err.class = class;
    err.status = status;
    if let Some(e) = &error {
        for (field, name) in [
            (&mut err.message, "message"),
            (&mut err.cause, "cause"),
            (&mut err.remediation, "remediation"),
        ] {
            let text = member_text(e, name, &forms);
            if !text.is_empty() {
                *field = text;
            }
        }
        if let Some(Value::Object(raw)) = e.get("context") {
            err.context = context_of(raw, &forms);
        }
    }
    from_headers(&mut err, error.as_ref(), headers, &forms);
    err
}
