//! A test service: axum on 127.0.0.1 answering with the crate's envelopes,
//! bounded (at most `--max-requests` requests, at most `--lifetime-s`
//! seconds), so the Python and TypeScript SDKs can read them back.
//!
//! `GET /emit/N` answers emit vector N (tests/conformance/vectors/emit.json)
//! through the writer and `response_of`; `GET /error/NAME` answers an
//! `ApiError` through `IntoResponse`. The first line on stdout is the base URL.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use errcat_rust_tests::emit_cases::{emit_vectors, input_of};
use mitos_errors::{envelope_bytes, response_of, ApiError};
use serde_json::Value as Json;

struct Service {
    vectors: Vec<Json>,
    served: AtomicUsize,
    max_requests: usize,
    done: tokio::sync::Notify,
}

impl Service {
    fn count(&self) {
        if self.served.fetch_add(1, Ordering::SeqCst) + 1 >= self.max_requests {
            self.done.notify_one();
        }
    }
}

async fn emit(State(s): State<Arc<Service>>, Path(index): Path<usize>) -> Response {
    s.count();
    match s.vectors.get(index) {
        Some(v) => {
            let owned = input_of(v);
            response_of(envelope_bytes(&owned.input()))
        }
        None => (axum::http::StatusCode::NOT_FOUND, "no such vector").into_response(),
    }
}

/// The errors `/error/NAME` answers through `IntoResponse`.
fn named(name: &str) -> ApiError {
    match name {
        "internal" => ApiError::internal().with_request_id("req-internal-1"),
        "secret-internal" => {
            let err = "db password=hunter2 at 10.0.0.7".parse::<u8>().unwrap_err();
            ApiError::for_code("internal", None)
                .with_cause("connect to postgres://app:hunter2@db/x failed")
                .with_source(err)
        }
        "rate-limited" => ApiError::rate_limited("sb-9", 1500)
            .with_cause("slow down: Bearer abcdefghijklmnop")
            .with_request_id("req-42"),
        "not-found" => ApiError::not_found("sb-1 tok-9f8e7d6c").with_request_id("req 7 with space"),
        _ => ApiError::unknown("no_such_case"),
    }
}

async fn error(State(s): State<Arc<Service>>, Path(name): Path<String>) -> Response {
    s.count();
    named(&name).into_response()
}

fn arg(args: &[String], name: &str, default: u64) -> u64 {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1)?.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let service = Arc::new(Service {
        vectors: emit_vectors(),
        served: AtomicUsize::new(0),
        max_requests: arg(&args, "--max-requests", 200) as usize,
        done: tokio::sync::Notify::new(),
    });
    let lifetime = Duration::from_secs(arg(&args, "--lifetime-s", 60));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    runtime.block_on(async move {
        let app = Router::new()
            .route("/emit/{index}", get(emit))
            .route("/error/{name}", get(error))
            .with_state(service.clone());
        let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0)))
            .await
            .expect("a loopback port");
        let addr = listener.local_addr().expect("its address");
        println!("http://{addr}");
        let stop = async move {
            let _ = tokio::time::timeout(lifetime, service.done.notified()).await;
            // Let the last response leave before the listener closes.
            tokio::time::sleep(Duration::from_millis(200)).await;
        };
        axum::serve(listener, app)
            .with_graceful_shutdown(stop)
            .await
            .expect("the service");
    });
}
