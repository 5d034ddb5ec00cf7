//! [`ApiError`]: one error of the catalogue, as a service raises it and as a
//! client reads it back.

use std::collections::BTreeMap;
use std::error::Error as StdError;
use std::fmt;
use std::time::Duration;

use crate::catalogue::{BASE_CLASS, CATCH_ALL, RETRY_AFTER_MAX_MS};
use crate::code::Code;
use crate::record::{CodeSpec, Recovery};
use crate::sanitize::sanitize_text;
use crate::value::Value;
use crate::wire::{fallback_code, WireCode};

/// An error's context: its structured fields, by name.
pub type Context = BTreeMap<String, Value>;

type Source = Box<dyn StdError + Send + Sync + 'static>;

/// One error of the API: its code, texts, context, status and request id,
/// classified by the catalogue entry of its code.
pub struct ApiError {
    pub(crate) code: WireCode,
    /// The catalogue code whose class and classification apply (`None`: the catch-all).
    pub(crate) class: Option<Code>,
    pub(crate) message: String,
    pub(crate) cause: String,
    pub(crate) remediation: String,
    pub(crate) context: Context,
    pub(crate) status: Option<u16>,
    pub(crate) request_id: Option<String>,
    pub(crate) retry_after_ms: Option<u64>,
    /// The failure this error was made from: logged, never written to the wire.
    pub(crate) source: Option<Source>,
    /// The caller's own message, cause, remediation and request id, as given
    /// (the writer sanitizes them with the request's token).
    pub(crate) given: [Option<String>; 4],
}

impl ApiError {
    /// The error of `code` with its catalogue texts, no context and no status.
    pub fn new(code: Code) -> ApiError {
        let spec = code.spec();
        ApiError {
            code: WireCode::Known(code),
            class: Some(code),
            message: spec.message.to_owned(),
            cause: spec.cause.to_owned(),
            remediation: spec.remediation.to_owned(),
            context: Context::new(),
            status: None,
            request_id: None,
            retry_after_ms: None,
            source: None,
            given: [None, None, None, None],
        }
    }

    /// The error of a code the catalogue does not define: the catch-all's
    /// classification and no texts (docs/sdk-contract.md section 3).
    pub fn unknown(code: &str) -> ApiError {
        let mut err = ApiError::new(Code::ALL[0]);
        err.code = WireCode::Unknown(sanitize_text(code, None));
        err.class = None;
        err.message.clear();
        err.cause.clear();
        err.remediation.clear();
        err
    }

    /// The error of `class` under a finer code the catalogue does not define
    /// (a newer server's, as the refines walk gives); `None` for a code that is
    /// a catalogue code other than `class`, or empty once sanitized.
    pub fn refined(class: Code, code: &str) -> Option<ApiError> {
        let clean = sanitize_text(code, None);
        let catalogue = clean.parse::<Code>().is_ok();
        if clean.is_empty() || (catalogue && (clean != class.as_str() || clean != code)) {
            return None;
        }
        let code = clean;
        let mut err = ApiError::new(class);
        err.code = WireCode::parse(&code);
        Some(err)
    }

    /// The error of any code by its text (docs/sdk-contract.md section 3,
    /// `error_for_code`): a catalogue code gives its error; any other, the
    /// catch-all's classification with the texts of the code `status` falls back to.
    pub fn for_code(code: &str, status: Option<u16>) -> ApiError {
        let clean = sanitize_text(code, None);
        match clean.parse::<Code>() {
            Ok(known) => ApiError::new(known).with_status(status),
            Err(_) => {
                let defaults = fallback_code(status).spec();
                let mut err = ApiError::unknown(&clean).with_status(status);
                err.message = defaults.message.to_owned();
                err.cause = defaults.cause.to_owned();
                err.remediation = defaults.remediation.to_owned();
                err
            }
        }
    }

    /// The message, sanitized (an empty one keeps the catalogue's).
    pub fn with_message(mut self, message: &str) -> Self {
        set_text(&mut self.message, message);
        self.given[0] = Some(message.to_owned());
        self
    }

    /// The cause, sanitized (an empty one keeps the catalogue's).
    pub fn with_cause(mut self, cause: &str) -> Self {
        set_text(&mut self.cause, cause);
        self.given[1] = Some(cause.to_owned());
        self
    }

    /// The remediation, sanitized (an empty one keeps the catalogue's).
    pub fn with_remediation(mut self, remediation: &str) -> Self {
        set_text(&mut self.remediation, remediation);
        self.given[2] = Some(remediation.to_owned());
        self
    }

    /// One context field (a `retry_after_ms` of at least 0 also sets the retry delay).
    pub fn with_context(mut self, key: &str, value: impl Into<Value>) -> Self {
        let value = value.into();
        if key == "retry_after_ms" {
            if let Value::Number(ms) = value {
                if ms >= 0.0 && ms.fract() == 0.0 && ms.is_finite() {
                    self.retry_after_ms = Some((ms as u64).min(RETRY_AFTER_MAX_MS));
                }
            }
        }
        self.context.insert(key.to_owned(), value);
        self
    }

    /// The HTTP status the error came with.
    pub fn with_status(mut self, status: Option<u16>) -> Self {
        self.status = status;
        self
    }

    /// The request id, sanitized.
    pub fn with_request_id(mut self, request_id: &str) -> Self {
        let clean = sanitize_text(request_id, None);
        self.request_id = (!clean.is_empty()).then_some(clean);
        self.given[3] = Some(request_id.to_owned());
        self
    }

    /// The failure this error was made from (kept for logs, never written to the wire).
    pub fn with_source(mut self, source: impl Into<Source>) -> Self {
        self.source = Some(source.into());
        self
    }

    /// The code as sent or given.
    pub fn code(&self) -> &WireCode {
        &self.code
    }

    /// The catalogue code whose class this error is (the refines walk's for a
    /// newer code); `None` for the catch-all.
    pub fn class_code(&self) -> Option<Code> {
        self.class
    }

    /// The catalogue's entry of [`ApiError::class_code`], or the catch-all.
    pub fn spec(&self) -> &'static CodeSpec {
        self.class.map_or(&CATCH_ALL, Code::spec)
    }

    /// The class names from the error's own to the base class (the refines chain).
    pub fn lineage(&self) -> Vec<&'static str> {
        let mut out: Vec<&'static str> = Vec::new();
        if let Some(class) = self.class {
            out.push(class.spec().class_name);
            for code in class.refines() {
                if let Ok(parent) = code.parse::<Code>() {
                    out.push(parent.spec().class_name);
                }
            }
        }
        out.push(BASE_CLASS);
        out
    }

    /// The one-line summary.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The one-sentence cause.
    pub fn cause(&self) -> &str {
        &self.cause
    }

    /// The next action that fixes or works around the error.
    pub fn remediation(&self) -> &str {
        &self.remediation
    }

    /// The structured fields.
    pub fn context(&self) -> &Context {
        &self.context
    }

    /// A text field of the context.
    pub fn context_text(&self, key: &str) -> Option<String> {
        match self.context.get(key) {
            Some(Value::String(s)) => Some(s.clone()),
            _ => None,
        }
    }

    /// An integer field of the context.
    pub fn context_integer(&self, key: &str) -> Option<i64> {
        match self.context.get(key) {
            Some(Value::Number(n)) if n.fract() == 0.0 && n.abs() <= 9_007_199_254_740_991.0 => {
                Some(*n as i64)
            }
            _ => None,
        }
    }

    /// A number field of the context.
    pub fn context_number(&self, key: &str) -> Option<f64> {
        match self.context.get(key) {
            Some(Value::Number(n)) => Some(*n),
            _ => None,
        }
    }

    /// A boolean field of the context.
    pub fn context_boolean(&self, key: &str) -> Option<bool> {
        match self.context.get(key) {
            Some(Value::Bool(b)) => Some(*b),
            _ => None,
        }
    }

    /// The HTTP status the error came with, if any.
    pub fn status(&self) -> Option<u16> {
        self.status
    }

    /// The request id, if any.
    pub fn request_id(&self) -> Option<&str> {
        self.request_id.as_deref()
    }

    /// How long to wait before retrying, in milliseconds, if the server said.
    pub fn retry_after_ms(&self) -> Option<u64> {
        self.retry_after_ms
    }

    /// [`ApiError::retry_after_ms`] as a duration.
    pub fn retry_delay(&self) -> Option<Duration> {
        self.retry_after_ms.map(Duration::from_millis)
    }

    /// Whether sending the same request again later may succeed.
    pub fn retryable(&self) -> bool {
        self.spec().retryable
    }

    /// Whether retrying later could plausibly succeed: the catalogue's `retryable`.
    pub fn is_transient(&self) -> bool {
        self.spec().retryable
    }

    /// Whether the caller cancelled the request (the catalogue's `cancelled`).
    pub fn is_cancelled(&self) -> bool {
        self.spec().is_cancelled
    }

    /// Whether the credential is missing, invalid or not permitted (the catalogue's `auth_failure`).
    pub fn is_auth_failure(&self) -> bool {
        self.spec().is_auth_failure
    }

    /// What to do next.
    pub fn recovery(&self) -> Recovery {
        self.spec().recovery
    }

    /// Whether the failed call may have changed something.
    pub fn side_effects(&self) -> &'static str {
        self.spec().side_effects
    }

    /// Where the failure arose.
    pub fn origin(&self) -> &'static str {
        self.spec().origin
    }
}

fn set_text(field: &mut String, given: &str) {
    let clean = sanitize_text(given, None);
    if !clean.is_empty() {
        *field = clean;
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl fmt::Debug for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ApiError")
            .field("code", &self.code.as_str())
            .field("message", &self.message)
            .field("cause", &self.cause)
            .field("status", &self.status)
            .field("context", &self.context)
            .field("request_id", &self.request_id)
            .finish_non_exhaustive()
    }
}

impl StdError for ApiError {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        self.source
            .as_deref()
            .map(|s| s as &(dyn StdError + 'static))
    }
}

impl From<Code> for ApiError {
    fn from(code: Code) -> Self {
        ApiError::new(code)
    }
}
