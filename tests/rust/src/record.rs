//! The record of an error (testkit.record): the public fields under the
//! Python names, and the extras every testee reports.

use std::error::Error;
use std::time::{SystemTime, UNIX_EPOCH};

use mitos_errors::{sanitize_text, ApiError, Value, BASE_CLASS};
use serde_json::{json, Map, Number, Value as Json};

const MAX_SAFE: f64 = 9_007_199_254_740_991.0;

/// Milliseconds since the epoch.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// A crate value as JSON: an integral number within 2^53 as an integer.
pub fn to_json(value: &Value) -> Json {
    match value {
        Value::Null => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Number(n) if n.fract() == 0.0 && n.abs() <= MAX_SAFE => json!(*n as i64),
        Value::Number(n) => Number::from_f64(*n).map_or(Json::Null, Json::Number),
        Value::String(s) => Json::String(s.clone()),
        Value::Array(items) => Json::Array(items.iter().map(to_json).collect()),
        Value::Object(members) => Json::Object(
            members
                .iter()
                .map(|(k, v)| (k.clone(), to_json(v)))
                .collect(),
        ),
    }
}

/// A JSON value of a request as a crate value.
pub fn to_value(value: &Json) -> Value {
    match value {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => Value::Number(n.as_f64().unwrap_or(f64::NAN)),
        Json::String(s) => Value::String(s.clone()),
        Json::Array(items) => Value::Array(items.iter().map(to_value).collect()),
        Json::Object(members) => Value::Object(
            members
                .iter()
                .map(|(k, v)| (k.clone(), to_value(v)))
                .collect(),
        ),
    }
}

/// Every text of the record, labelled as testkit.record.texts_of labels it.
fn texts(err: &ApiError) -> Vec<(String, String)> {
    let mut out = vec![
        ("code".to_owned(), err.code().as_str().to_owned()),
        ("message".to_owned(), err.message().to_owned()),
        ("cause".to_owned(), err.cause().to_owned()),
        ("remediation".to_owned(), err.remediation().to_owned()),
    ];
    if let Some(id) = err.request_id() {
        out.push(("request_id".to_owned(), id.to_owned()));
    }
    for (key, value) in err.context() {
        out.push((format!("context key:{key}"), key.clone()));
        if let Value::String(s) = value {
            out.push((format!("context value:{key}"), s.clone()));
        }
    }
    out
}

/// The record of `err`, made with the request's `token`.
pub fn record(err: &ApiError, token: Option<&str>) -> Map<String, Json> {
    let spec = err.spec();
    let class = err.class_code().map_or(BASE_CLASS, |c| c.spec().class_name);
    let recovery = err.recovery();
    let context: Map<String, Json> = err
        .context()
        .iter()
        .map(|(k, v)| (k.clone(), to_json(v)))
        .collect();
    let resanitized: Map<String, Json> = texts(err)
        .into_iter()
        .map(|(label, text)| (label, Json::String(sanitize_text(&text, token))))
        .collect();
    let json_form = err.emit(None, None).body;
    let forms = json!({
        "display": err.to_string(),
        "debug": format!("{err:?}"),
        "json": json_form,
    });
    let out = json!({
        "class": class,
        "lineage": err.lineage(),
        "code": err.code().as_str(),
        "message": err.message(),
        "cause": err.cause(),
        "remediation": err.remediation(),
        "status": err.status(),
        "context": context,
        "retryable": err.retryable(),
        "retry_after_ms": err.retry_after_ms(),
        "request_id": err.request_id(),
        "recovery": {
            "action": recovery.action,
            "same_arguments": recovery.same_arguments,
            "guidance": recovery.guidance,
        },
        "side_effects": err.side_effects(),
        "origin": err.origin(),
        "is_auth_failure": err.is_auth_failure(),
        "is_cancelled": err.is_cancelled(),
        "http_status": err.class_code().and(spec.http_status),
        "grpc_status": err.class_code().and(spec.grpc_status),
        "base_instance": true,
        "chained": err.source().is_some(),
        "revives": Json::Null,
        "resanitized": resanitized,
        "forms": forms,
    });
    match out {
        Json::Object(map) => map,
        _ => Map::new(),
    }
}
