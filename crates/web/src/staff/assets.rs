//! The files the staff pages load, built into the binary: the script, the styles, the
//! sounds' absence (they are synthesized), and the camera's fallback decoder (vendored:
//! crates/web/staff/vendor/README.md says which and why).

use axum::extract::Path;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

/// Each file: its name, type and content.
const FILES: &[(&str, &str, &[u8])] = &[
    (
        "staff.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../staff/staff.js"),
    ),
    (
        "staff.css",
        "text/css; charset=utf-8",
        include_bytes!("../../staff/staff.css"),
    ),
    (
        "barcode-detector.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../staff/vendor/barcode-detector.js"),
    ),
    (
        "zxing-exported.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../staff/vendor/zxing-exported.js"),
    ),
    (
        "zxing_reader.wasm",
        "application/wasm",
        include_bytes!("../../staff/vendor/zxing_reader.wasm"),
    ),
];

pub(super) async fn file(Path(name): Path<String>) -> Response {
    match FILES.iter().find(|(n, _, _)| *n == name) {
        Some((_, kind, body)) => (
            [
                (CONTENT_TYPE, *kind),
                // Revalidated after an hour: an upgrade's script reaches open pages soon.
                (CACHE_CONTROL, "public, max-age=3600"),
            ],
            *body,
        )
            .into_response(),
        None => ApiError::NotFound("No such file of the staff pages.".into()).into_response(),
    }
}
