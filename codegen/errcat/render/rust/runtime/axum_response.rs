//! `IntoResponse` for [`ApiError`] (feature `axum`): the canonical envelope
//! with its status and headers. An internal error is written with the
//! catalogue's texts only; the original stays in the response's extensions
//! ([`OriginalError`]) for a logging layer.

#![cfg(feature = "axum")]

use std::sync::Arc;

use axum::response::{IntoResponse, Response};
use http::{HeaderName, HeaderValue, StatusCode};

use crate::catalogue::FALLBACK_SERVER_ERROR;
use crate::emit::{envelope_bytes, EmitInput, Emitted};
use crate::error::ApiError;
use crate::wire::WireCode;

/// The error a response was made from, in its extensions: logged, never sent.
#[derive(Clone, Debug)]
pub struct OriginalError(pub Arc<ApiError>);

/// What the wire gets of `err`: an internal error (or one of a code that is no
/// server code) as the catalogue's internal error, with its request id only.
pub fn public_envelope(err: &ApiError) -> Emitted {
    let internal = match err.code() {
        WireCode::Known(code) => *code == FALLBACK_SERVER_ERROR,
        WireCode::Unknown(_) => true,
    };
    if internal {
        let id = err.given[3].as_deref();
        return envelope_bytes(&EmitInput {
            request_id: id,
            ..EmitInput::default()
        });
    }
    err.emit(None, None)
}

/// The response of an [`Emitted`] envelope.
pub fn response_of(emitted: Emitted) -> Response {
    let status = StatusCode::from_u16(emitted.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = (status, emitted.body).into_response();
    let headers = response.headers_mut();
    for (name, value) in &emitted.headers {
        if let (Ok(name), Ok(value)) = (
            HeaderName::from_bytes(name.as_bytes()),
            HeaderValue::from_str(value),
        ) {
            headers.insert(name, value);
        }
    }
    response
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = response_of(public_envelope(&self));
        response
            .extensions_mut()
            .insert(OriginalError(Arc::new(self)));
        response
    }
}
