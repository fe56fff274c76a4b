//! `agui-rust-producer PORT`: a scripted AG-UI agent served by the `ag-ui`
//! crate's server side on axum, on 127.0.0.1:PORT (adapters/producers/
//! README.md). `GET /versions` answers the versions it runs; `POST /` takes
//! a `RunAgentInput` and streams the run as `text/event-stream`. The user
//! message chooses the scenario ([`script`], after `common/script.py`).

mod agent;
mod script;

use ag_ui::axum::RouterExt;
use axum::Router;
use axum::routing::get;
use std::process::ExitCode;

/// The versions this server runs, as pinned in Cargo.toml.
async fn versions() -> axum::Json<serde_json::Value> {
    axum::Json(serde_json::json!({"ag-ui": "0.3.0", "axum": "0.8.9", "tokio": "1.54.1"}))
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let port = match (args.next().map(|p| p.parse::<u16>()), args.next()) {
        (Some(Ok(p)), None) => p,
        _ => {
            eprintln!("usage: agui-rust-producer PORT");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("agui-rust-producer: no runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let served = runtime.block_on(async {
        let app = Router::new()
            .route("/versions", get(versions))
            .route_agui("/", agent::Scripted);
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
        axum::serve(listener, app).await
    });
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("agui-rust-producer: {e}");
            ExitCode::FAILURE
        }
    }
}
