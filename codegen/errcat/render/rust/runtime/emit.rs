//! The canonical envelope (docs/sdk-contract.md section 6): the status,
//! headers and body bytes every writer sends for the same input.

use std::collections::BTreeMap;
use std::error::Error as StdError;

use crate::catalogue::{
    CONTEXT_MAX_KEYS, ERROR_BODY_MAX_BYTES, FALLBACK_SERVER_ERROR, JSON_MAX_DEPTH,
    RETRY_AFTER_MAX_MS,
};
use crate::code::Code;
use crate::error::{ApiError, Context};
use crate::sanitize::{sanitize_with, token_forms};
use crate::value::{write_string, write_value, Value};
use crate::wire::WireCode;

/// The depth of the context object itself in `{"error":{"context":{...}}}`.
const CONTEXT_DEPTH: usize = 3;

/// What a writer sends: the status, the headers (lower-case names, sorted) and the body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Emitted {
    /// The HTTP status: the code's catalogue status.
    pub status: u16,
    /// `content-type`, and `retry-after`, `retry-after-ms`, `x-request-id` when they apply.
    pub headers: Vec<(String, String)>,
    /// The body: compact pure-ASCII JSON, no trailing newline.
    pub body: String,
}

/// The writer's input: a catalogue code (`None`: an error that is not a
/// catalogue error), the surface, the caller's texts, the context, the
/// request id, and the request's token (used to redact, never written).
#[derive(Clone, Copy, Debug, Default)]
pub struct EmitInput<'a> {
    /// The code; a code that is not a server code of the catalogue is written as `internal`.
    pub code: Option<&'a str>,
    /// The surface whose catalogue texts apply (`codes.X.surfaces.S`).
    pub surface: Option<&'a str>,
    /// The caller's own message.
    pub message: Option<&'a str>,
    /// The caller's own remediation.
    pub remediation: Option<&'a str>,
    /// The cause (written only when given).
    pub cause: &'a str,
    /// The context.
    pub context: Option<&'a Context>,
    /// The request id.
    pub request_id: Option<&'a str>,
    /// The request's token.
    pub token: Option<&'a str>,
}

fn server_code(code: Option<&str>) -> Option<Code> {
    code?
        .parse::<Code>()
        .ok()
        .filter(|c| c.spec().emitted_by == Some("server"))
}

/// The code the writer writes for `input`: its code when a server code, else the substitute.
#[cfg_attr(not(feature = "tonic"), allow(dead_code))]
pub(crate) fn written_code(input: &EmitInput<'_>) -> Code {
    server_code(input.code).unwrap_or(FALLBACK_SERVER_ERROR)
}

fn clean(text: Option<&str>, forms: &[String]) -> String {
    text.filter(|t| !t.is_empty())
        .map(|t| sanitize_with(t, forms))
        .unwrap_or_default()
}

fn bounded(value: &Value, forms: &[String], depth: usize) -> Option<Value> {
    match value {
        Value::Null | Value::Bool(_) => Some(value.clone()),
        Value::Number(n) => (!n.is_nan()).then(|| value.clone()),
        Value::String(s) => Some(Value::String(sanitize_with(s, forms))),
        Value::Array(items) if depth <= JSON_MAX_DEPTH as usize => Some(Value::Array(
            items
                .iter()
                .filter_map(|item| bounded(item, forms, depth + 1))
                .collect(),
        )),
        Value::Object(obj) if depth <= JSON_MAX_DEPTH as usize => {
            Some(Value::Object(members(obj, forms, depth)))
        }
        _ => None,
    }
}

fn members(
    obj: &BTreeMap<String, Value>,
    forms: &[String],
    depth: usize,
) -> BTreeMap<String, Value> {
    let mut kept = BTreeMap::new();
    for (key, value) in obj {
        if key.is_empty() || sanitize_with(key, forms) != *key {
            continue;
        }
        if let Some(item) = bounded(value, forms, depth + 1) {
            kept.insert(key.clone(), item);
        }
        if kept.len() == CONTEXT_MAX_KEYS as usize {
            break;
        }
    }
    kept
}

fn texts(code: Code, surface: Option<&str>) -> (&'static str, &'static str) {
    let spec = code.spec();
    let (message, remediation) = surface
        .and_then(|s| code.surface(s))
        .unwrap_or((None, None));
    (
        message.unwrap_or(spec.message),
        remediation.unwrap_or(spec.remediation),
    )
}

struct Body<'a> {
    code: Code,
    message: &'a str,
    cause: &'a str,
    remediation: &'a str,
    context: &'a BTreeMap<String, Value>,
    request_id: &'a str,
}

impl Body<'_> {
    fn write(&self) -> String {
        let mut out = String::from("{\"error\":{\"code\":");
        write_string(self.code.as_str(), &mut out);
        out.push_str(",\"message\":");
        write_string(self.message, &mut out);
        if !self.cause.is_empty() {
            out.push_str(",\"cause\":");
            write_string(self.cause, &mut out);
        }
        out.push_str(",\"remediation\":");
        write_string(self.remediation, &mut out);
        if !self.context.is_empty() {
            out.push_str(",\"context\":");
            write_value(&Value::Object(self.context.clone()), &mut out);
        }
        if !self.request_id.is_empty() {
            out.push_str(",\"request_id\":");
            write_string(self.request_id, &mut out);
        }
        let chain = self.code.refines();
        if !chain.is_empty() {
            let chain = chain.iter().map(|c| Value::from(*c)).collect();
            out.push_str(",\"refines\":");
            write_value(&Value::Array(chain), &mut out);
        }
        out.push_str("}}");
        out
    }
}

fn headers(context: Option<&Context>, request_id: &str) -> Vec<(String, String)> {
    let mut out = vec![("content-type".to_owned(), "application/json".to_owned())];
    if !request_id.is_empty() && request_id.bytes().all(|b| (0x21..=0x7e).contains(&b)) {
        out.push(("x-request-id".to_owned(), request_id.to_owned()));
    }
    if let Some(Value::Number(x)) = context.and_then(|c| c.get("retry_after_ms")) {
        if *x >= 0.0 {
            let ms = x.min(RETRY_AFTER_MAX_MS as f64).ceil() as u64;
            out.push(("retry-after".to_owned(), ms.div_ceil(1000).to_string()));
            out.push(("retry-after-ms".to_owned(), ms.to_string()));
        }
    }
    out.sort();
    out
}

/// The status, headers and body a writer sends for `input`.
pub fn envelope_bytes(input: &EmitInput<'_>) -> Emitted {
    let forms = input.token.map(token_forms).unwrap_or_default();
    let request_id = clean(input.request_id, &forms);
    let known = server_code(input.code);
    let code = known.unwrap_or(FALLBACK_SERVER_ERROR);
    let given = if known.is_some() {
        *input
    } else {
        EmitInput::default()
    };
    let (message, remediation) = texts(code, input.surface);
    let mut own = (
        clean(given.message, &forms),
        clean(given.remediation, &forms),
    );
    let mut cause = clean(Some(given.cause), &forms);
    let mut context = given
        .context
        .map(|c| members(c, &forms, CONTEXT_DEPTH))
        .unwrap_or_default();
    let mut body_id = request_id.clone();
    let cap = ERROR_BODY_MAX_BYTES as usize;
    let mut text = String::new();
    for step in 0..5 {
        match step {
            1 => context.clear(),
            2 => cause.clear(),
            3 => body_id.clear(),
            4 => own = (String::new(), String::new()),
            _ => {}
        }
        text = Body {
            code,
            message: if own.0.is_empty() { message } else { &own.0 },
            cause: &cause,
            remediation: if own.1.is_empty() {
                remediation
            } else {
                &own.1
            },
            context: &context,
            request_id: &body_id,
        }
        .write();
        if text.len() <= cap {
            break;
        }
    }
    Emitted {
        status: code.spec().http_status.unwrap_or(500),
        headers: headers(given.context, &request_id),
        body: text,
    }
}

/// The envelope of any error: an [`ApiError`] of a server code is written
/// with its code, texts, cause and context; anything else as `internal`,
/// its own text never reaching the wire.
pub fn envelope_for(
    error: &(dyn StdError + 'static),
    surface: Option<&str>,
    token: Option<&str>,
) -> Emitted {
    match error.downcast_ref::<ApiError>() {
        Some(err) => err.emit(surface, token),
        None => envelope_bytes(&EmitInput {
            surface,
            token,
            ..EmitInput::default()
        }),
    }
}

impl ApiError {
    /// The writer's input of this error on `surface` with the request's `token`.
    pub fn emit_input<'a>(
        &'a self,
        surface: Option<&'a str>,
        token: Option<&'a str>,
    ) -> EmitInput<'a> {
        let [message, cause, remediation, request_id] = &self.given;
        EmitInput {
            code: match &self.code {
                WireCode::Known(code) => Some(code.as_str()),
                WireCode::Unknown(_) => None,
            },
            surface,
            message: message.as_deref(),
            remediation: remediation.as_deref(),
            cause: cause.as_deref().unwrap_or(""),
            context: Some(&self.context),
            request_id: request_id.as_deref(),
            token,
        }
    }

    /// The canonical envelope of this error on `surface`, redacting `token`.
    pub fn emit(&self, surface: Option<&str>, token: Option<&str>) -> Emitted {
        envelope_bytes(&self.emit_input(surface, token))
    }
}
