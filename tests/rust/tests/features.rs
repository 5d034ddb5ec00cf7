//! The `axum` and `tonic` features: what reaches the wire, and what comes back.

use axum::response::IntoResponse;
use mitos_errors::{ApiError, Code, OriginalError, WireCode, ENVELOPE_KEY};
use tonic_types::StatusExt;

#[test]
fn an_internal_errors_text_stays_in_the_extensions() {
    let err = ApiError::internal()
        .with_cause("dial postgres://app:hunter2@db/x")
        .with_request_id("req-1");
    let response = err.into_response();
    assert_eq!(response.status().as_u16(), 500);
    assert_eq!(response.headers()["x-request-id"], "req-1");
    let original = response
        .extensions()
        .get::<OriginalError>()
        .expect("the original");
    assert!(original.0.cause().contains("db/x"));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime");
    let body = runtime
        .block_on(axum::body::to_bytes(response.into_body(), 1 << 16))
        .expect("the body");
    let body = String::from_utf8_lossy(&body);
    assert!(
        body.starts_with("{\"error\":{\"code\":\"internal\""),
        "{body}"
    );
    assert!(
        !body.contains("db/x") && body.contains("\"request_id\":\"req-1\""),
        "{body}"
    );
}

#[test]
fn a_status_round_trip_keeps_the_error() {
    let sent = ApiError::rate_limited("sb-1", 2500)
        .with_cause("slow down")
        .with_request_id("req-9");
    let status = sent.to_status(None);
    assert_eq!(status.code(), tonic::Code::ResourceExhausted);
    let info = status
        .get_error_details()
        .error_info()
        .cloned()
        .expect("ErrorInfo");
    assert_eq!(info.reason, "rate_limited");
    assert!(info.metadata.contains_key(ENVELOPE_KEY));
    let back = ApiError::from_status(&status, None);
    assert_eq!(back.code(), &WireCode::Known(Code::RateLimited));
    assert_eq!(
        (back.cause(), back.request_id()),
        ("slow down", Some("req-9"))
    );
    assert_eq!(
        (back.retry_after_ms(), back.status()),
        (Some(2500), Some(429))
    );
    assert_eq!(back.context_text("sandbox").as_deref(), Some("sb-1"));
}

#[test]
fn a_bare_status_maps_through_the_gateway_map_and_is_sanitized() {
    let status = tonic::Status::new(tonic::Code::NotFound, "no file Bearer abcdefghijkl");
    let err = ApiError::from_status(&status, None);
    assert_eq!(err.code(), &WireCode::Known(Code::NotFound));
    assert_eq!(err.cause(), "no file Bearer [REDACTED]");
    let token = tonic::Status::new(tonic::Code::Internal, "t0k3n-secret leaked");
    let err = ApiError::from_status(&token, Some("t0k3n-secret"));
    assert_eq!(
        (err.code().as_str(), err.cause()),
        ("internal", "[REDACTED] leaked")
    );
}

#[test]
fn an_internal_error_sends_no_cause_over_grpc() {
    let status = ApiError::internal()
        .with_cause("secret stack")
        .to_status(None);
    assert_eq!(status.code(), tonic::Code::Internal);
    let back = ApiError::from_status(&status, None);
    assert_ne!(back.cause(), "secret stack");
}
