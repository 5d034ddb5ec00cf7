//! [`ApiError`] to and from `tonic::Status` (feature `tonic`): the status
//! of the code's catalogue gRPC status, `google.rpc.ErrorInfo` with the code
//! as its reason, and the canonical envelope in the info's metadata, so a
//! client reads the same error as from an HTTP response.

#![cfg(feature = "tonic")]

use std::collections::HashMap;

use tonic_types::{ErrorDetails, StatusExt};

use crate::catalogue::{CATALOGUE_VERSION, FALLBACK_SERVER_ERROR};
use crate::emit::{envelope_bytes, written_code, EmitInput};
use crate::error::ApiError;
use crate::grpc::{code_for_grpc, number_of};
use crate::read::error_from_body;
use crate::sanitize::sanitize_text;
use crate::value::write_string;

/// The `ErrorInfo` domain of the catalogue's errors.
pub const ERROR_DOMAIN: &str = env!("CARGO_PKG_NAME");
/// The metadata key holding the canonical envelope.
pub const ENVELOPE_KEY: &str = "envelope";
/// The metadata key holding the HTTP status the envelope goes with.
pub const HTTP_STATUS_KEY: &str = "http_status";

impl ApiError {
    /// The `tonic::Status` of this error: the code's gRPC status, its message,
    /// and `ErrorInfo` (reason = code, the envelope in the metadata). An
    /// internal error carries the catalogue's texts only.
    pub fn to_status(&self, token: Option<&str>) -> tonic::Status {
        let mut input = self.emit_input(None, token);
        if self.code().known() == Some(FALLBACK_SERVER_ERROR) {
            input = EmitInput {
                request_id: input.request_id,
                token,
                ..EmitInput::default()
            };
        }
        let code = written_code(&input);
        let emitted = envelope_bytes(&input);
        let spec = code.spec();
        let grpc = spec.grpc_status.and_then(number_of).map_or(2, i32::from);
        let metadata = HashMap::from([
            (ENVELOPE_KEY.to_owned(), emitted.body),
            (HTTP_STATUS_KEY.to_owned(), emitted.status.to_string()),
            ("catalogue_version".to_owned(), CATALOGUE_VERSION.to_owned()),
        ]);
        let details = ErrorDetails::with_error_info(code.as_str(), ERROR_DOMAIN, metadata);
        tonic::Status::with_error_details(tonic::Code::from_i32(grpc), spec.message, details)
    }

    /// The error of a `tonic::Status`: its envelope when it carries one
    /// (read as an HTTP body is), else the code of its `ErrorInfo` reason, else
    /// the catalogue's gateway map of the status, with the status's message
    /// (sanitized, `token` redacted) as the cause.
    pub fn from_status(status: &tonic::Status, token: Option<&str>) -> ApiError {
        let details = status.get_error_details();
        if let Some(info) = details.error_info() {
            let http = info
                .metadata
                .get(HTTP_STATUS_KEY)
                .and_then(|s| s.parse().ok());
            if let Some(body) = info.metadata.get(ENVELOPE_KEY) {
                return error_from_body(body.as_bytes(), http, &[], token);
            }
            let mut body = String::from("{\"error\":{\"code\":");
            write_string(&info.reason, &mut body);
            body.push_str(",\"cause\":");
            write_string(status.message(), &mut body);
            body.push_str("}}");
            return error_from_body(body.as_bytes(), http, &[], token);
        }
        let number = (status.code() as i32).to_string();
        let code = code_for_grpc(&number, None).unwrap_or(FALLBACK_SERVER_ERROR);
        let cause = sanitize_text(status.message(), token);
        ApiError::new(code)
            .with_cause(&cause)
            .with_status(code.spec().http_status)
    }
}

impl From<ApiError> for tonic::Status {
    fn from(err: ApiError) -> Self {
        err.to_status(None)
    }
}

impl From<tonic::Status> for ApiError {
    fn from(status: tonic::Status) -> Self {
        ApiError::from_status(&status, None)
    }
}
