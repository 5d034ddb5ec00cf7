//! One request of the protocol answered with the crate.

use std::time::Instant;

use mitos_errors::{
    code_for_grpc, envelope_bytes, error_from_body, sanitize_text, ApiError, Code, EmitInput,
};
use serde_json::{json, Map, Value as Json};
use sha2::{Digest, Sha256};

use crate::record::{record, to_value};

/// A lone surrogate escape in a request stands for this (no test text holds it).
pub const LONE: char = '\u{FDD0}';

/// `line` with each lone UTF-16 surrogate escape replaced by the `LONE` sentinel,
/// which serde_json refuses but the other testees' JSON readers keep.
pub fn mend_surrogates(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::with_capacity(line.len());
    let unit = |at: usize| -> Option<u32> {
        if chars.get(at) != Some(&'\\') || chars.get(at + 1) != Some(&'u') {
            return None;
        }
        let hex: String = chars.get(at + 2..at + 6)?.iter().collect();
        u32::from_str_radix(&hex, 16).ok()
    };
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '\\' && chars.get(i + 1) == Some(&'\\') {
            out.push_str("\\\\");
            i += 2;
            continue;
        }
        match unit(i) {
            Some(high @ 0xD800..=0xDBFF) if matches!(unit(i + 6), Some(0xDC00..=0xDFFF)) => {
                let low = unit(i + 6).unwrap_or(0);
                out.push_str(&format!("\\u{high:04x}\\u{low:04x}"));
                i += 12;
            }
            Some(0xD800..=0xDFFF) => {
                out.push_str("\\ufdd0");
                i += 6;
            }
            _ => {
                out.push(chars[i]);
                i += 1;
            }
        }
    }
    out
}

/// A request text: a lone surrogate is a character the sanitizer removes (NUL).
fn text(r: &Json, name: &str) -> Option<String> {
    r.get(name)?.as_str().map(|s| s.replace(LONE, "\u{0}"))
}

fn well_formed(text: &str) -> String {
    text.replace(LONE, "\u{FFFD}")
}

fn base64_decode(text: &str) -> Vec<u8> {
    let digit = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let bits: Vec<u8> = text.bytes().filter_map(digit).collect();
    let mut out = Vec::new();
    for chunk in bits.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, d)| n | (u32::from(*d) << (18 - 6 * i)));
        for i in 0..chunk.len().saturating_sub(1) {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}

fn part_bytes(part: &Json, out: &mut Vec<u8>) {
    if let Some(s) = part.as_str() {
        out.extend_from_slice(well_formed(s).as_bytes());
    } else if let Some(b) = part.get("base64").and_then(Json::as_str) {
        out.extend(base64_decode(b));
    } else if let Some(unit) = part.get("repeat").and_then(Json::as_str) {
        let times = part.get("times").and_then(Json::as_u64).unwrap_or(0) as usize;
        out.extend_from_slice(well_formed(unit).repeat(times).as_bytes());
    }
}

/// The body's bytes, and whether it was given as bytes (its digest is then reported).
fn body(r: &Json) -> (Vec<u8>, bool) {
    let Some(b) = r.get("body").filter(|b| b.is_object()) else {
        return (Vec::new(), false);
    };
    if let Some(t) = b.get("text").and_then(Json::as_str) {
        return (well_formed(t).into_bytes(), false);
    }
    if let Some(t) = b.get("base64").and_then(Json::as_str) {
        return (base64_decode(t), true);
    }
    let mut out = Vec::new();
    for part in b
        .get("parts")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
    {
        part_bytes(part, &mut out);
    }
    (out, b.get("as").and_then(Json::as_str) != Some("text"))
}

fn headers(r: &Json) -> Vec<(String, String)> {
    let pair = |n: &str, v: &Json| (n.to_owned(), v.as_str().unwrap_or_default().to_owned());
    match r.get("headers") {
        Some(Json::Object(map)) => map.iter().map(|(n, v)| pair(n, v)).collect(),
        Some(Json::Array(items)) => items
            .iter()
            .filter_map(|p| Some(pair(p.get(0)?.as_str()?, p.get(1)?)))
            .collect(),
        _ => Vec::new(),
    }
}

fn status(r: &Json) -> Option<u16> {
    r.get("status")
        .and_then(Json::as_u64)
        .and_then(|s| u16::try_from(s).ok())
}

fn timed(token: Option<&str>, call: impl FnOnce() -> Result<ApiError, String>) -> Json {
    let before = crate::record::now_ms();
    let started = Instant::now();
    let made = call();
    let elapsed = started.elapsed().as_secs_f64() * 1000.0;
    let after = crate::record::now_ms();
    match made {
        Err(why) => json!({ "threw": why }),
        Ok(err) => {
            let mut out = record(&err, token);
            out.insert("elapsed_ms".into(), json!(elapsed));
            out.insert("before".into(), json!(before));
            out.insert("after".into(), json!(after));
            Json::Object(out)
        }
    }
}

fn op_body(r: &Json) -> Json {
    let token = text(r, "token");
    let (bytes, is_bytes) = body(r);
    let hs = headers(r);
    let mut out = timed(token.as_deref(), || {
        Ok(error_from_body(&bytes, status(r), &hs, token.as_deref()))
    });
    if is_bytes {
        let digest: String = Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        out["body_sha256"] = json!(digest);
    }
    out
}

fn texts(mut err: ApiError, r: &Json) -> ApiError {
    if let Some(m) = text(r, "message") {
        err = err.with_message(&m);
    }
    if let Some(c) = text(r, "cause") {
        err = err.with_cause(&c);
    }
    if let Some(m) = text(r, "remediation") {
        err = err.with_remediation(&m);
    }
    err
}

fn op_error_for_code(r: &Json) -> Json {
    let token = text(r, "token");
    timed(token.as_deref(), || {
        let code = text(r, "code").ok_or("code must be a string")?;
        let mut err = texts(ApiError::for_code(&code, status(r)), r);
        if let Some(Json::Object(context)) = r.get("context") {
            for (k, v) in context {
                err = err.with_context(k, to_value(v));
            }
        }
        if let Some(id) = text(r, "request_id") {
            err = err.with_request_id(&id);
        }
        Ok(err)
    })
}

fn op_construct(r: &Json) -> Json {
    timed(None, || {
        let err = match text(r, "class") {
            None => ApiError::unknown(&text(r, "code").ok_or("a code is required")?),
            Some(class) => {
                let class: Code = class.parse().map_err(|e| format!("{e}"))?;
                let code = text(r, "code").unwrap_or_else(|| class.as_str().to_owned());
                ApiError::refined(class, &code).ok_or(format!("refused code {code:?}"))?
            }
        };
        Ok(texts(err, r).with_status(status(r)))
    })
}

fn op_code_for_grpc(r: &Json) -> Json {
    let status = match r.get("status") {
        Some(Json::String(s)) => s.clone(),
        Some(Json::Number(n)) => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 1e9 => format!("{}", f as i64),
            _ => String::new(),
        },
        _ => String::new(),
    };
    let channel = text(r, "channel");
    timed(None, || {
        let code = code_for_grpc(&status, channel.as_deref()).map_err(|e| e.to_string())?;
        Ok(ApiError::new(code).with_message(""))
    })
}

fn op_emit(r: &Json) -> Json {
    let context = r.get("context").cloned().unwrap_or(Json::Null).to_string();
    let context = match serde_json::from_str(&context.replace(LONE, "\\u0000")) {
        Ok(c) => match to_value(&c) {
            mitos_errors::Value::Object(members) => members,
            _ => Default::default(),
        },
        Err(_) => Default::default(),
    };
    let texts: Vec<Option<String>> = [
        "code",
        "surface",
        "message",
        "remediation",
        "request_id",
        "token",
    ]
    .iter()
    .map(|name| text(r, name))
    .collect();
    let cause = text(r, "cause").unwrap_or_default();
    let sent = envelope_bytes(&EmitInput {
        code: texts[0].as_deref(),
        surface: texts[1].as_deref(),
        message: texts[2].as_deref(),
        remediation: texts[3].as_deref(),
        cause: &cause,
        context: Some(&context),
        request_id: texts[4].as_deref(),
        token: texts[5].as_deref(),
    });
    let headers: Vec<Json> = sent.headers.iter().map(|(n, v)| json!([n, v])).collect();
    json!({ "status": sent.status, "headers": headers, "body": sent.body })
}

/// The answer to one request line.
pub fn answer(line: &str) -> Json {
    let r: Json = match serde_json::from_str(&mend_surrogates(line)) {
        Ok(r) => r,
        Err(e) => return json!({ "threw": format!("not a request: {e}") }),
    };
    let mut out = match r.get("op").and_then(Json::as_str) {
        Some("body") => op_body(&r),
        Some("error_for_code") => op_error_for_code(&r),
        Some("construct") => op_construct(&r),
        Some("code_for_grpc") => op_code_for_grpc(&r),
        Some("emit") => op_emit(&r),
        Some("sanitize") => {
            let t = text(&r, "text").unwrap_or_default();
            json!({ "text": sanitize_text(&t, text(&r, "token").as_deref()) })
        }
        Some(op) => json!({ "threw": format!("the Rust crate has no {op:?} call") }),
        None => json!({ "threw": "no op" }),
    };
    let mut object = match out.take() {
        Json::Object(m) => m,
        other => Map::from_iter([("value".to_owned(), other)]),
    };
    object.insert("id".into(), r.get("id").cloned().unwrap_or(Json::Null));
    Json::Object(object)
}
