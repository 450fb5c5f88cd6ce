//! Records the simulator's live stream (animated, 60 fps, 1280×800 unless a size is given) to a
//! file for the codec benchmark: the instructions exactly as they arrived, concatenated.
//!
//! `cargo run -p porthole-live --example record_stream -- crates/live/benches/data/sim-1280x800.guac`
//! `cargo run -p porthole-live --example record_stream -- crates/live/benches/data/sim-1920x1080.guac 1920 1080`
//!
//! It stops at 1.9 MB (the size under which a recording may be committed). Sync echoes go back
//! at once, like a viewer that draws instantly.

use futures_util::{SinkExt, StreamExt};
use porthole_live::codec::{encode_parts_into, parse_frame};
use porthole_sim::{Config, Sim};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::{header::SEC_WEBSOCKET_PROTOCOL, HeaderValue};
use tokio_tungstenite::tungstenite::Message;

const LIMIT: usize = 1_900_000;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let out = args
        .get(1)
        .ok_or("usage: record_stream <output file> [width height]")?
        .clone();
    let size = match (args.get(2), args.get(3)) {
        (Some(w), Some(h)) => format!("&width={w}&height={h}"),
        _ => String::new(),
    };
    let sim = Sim::start(Config::default()).await?;
    let key = sim.account("ada").api_key.clone().ok_or("ada has no key")?;
    let http = reqwest::Client::new();
    let list: serde_json::Value = http
        .get(format!("{}/v1/agents/machines", sim.base_url))
        .bearer_auth(&key)
        .send()
        .await?
        .json()
        .await?;
    let machine = list["machines"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|m| m["name"] == "Design laptop")
        .and_then(|m| m["machineId"].as_str())
        .ok_or("no Design laptop")?
        .to_owned();
    let live: serde_json::Value = http
        .post(format!(
            "{}/v1/agents/machines/{machine}/live",
            sim.base_url
        ))
        .bearer_auth(&key)
        .send()
        .await?
        .json()
        .await?;
    let url = format!(
        "{}&animate=1&fps=60{size}",
        live["websocketUrl"].as_str().ok_or("no websocketUrl")?
    );
    let mut request = url.into_client_request()?;
    request.headers_mut().insert(
        SEC_WEBSOCKET_PROTOCOL,
        HeaderValue::from_static("guacamole"),
    );
    let (mut ws, _) = tokio_tungstenite::connect_async(request).await?;
    let mut recorded = String::new();
    let mut echo = String::new();
    while let Some(message) = ws.next().await {
        let Message::Text(text) = message? else {
            continue;
        };
        if recorded.len() + text.len() > LIMIT {
            break;
        }
        recorded.push_str(text.as_str());
        echo.clear();
        for instruction in parse_frame(text.as_str()) {
            let instruction = instruction?;
            if instruction.opcode() == "sync" {
                encode_parts_into(&mut echo, "sync", &[instruction.arg(0).unwrap_or("0")]);
            }
        }
        if !echo.is_empty() {
            ws.send(Message::text(echo.clone())).await?;
        }
    }
    std::fs::write(&out, &recorded)?;
    let frames = parse_frame(&recorded)
        .filter(|i| matches!(i, Ok(i) if i.opcode() == "sync"))
        .count();
    eprintln!("{} bytes, {frames} frames -> {out}", recorded.len());
    Ok(())
}
