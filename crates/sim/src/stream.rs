//! The `wait: true` answer of a message: a server-sent-event stream of `data: <JSON>` frames
//! (`start` with `messageId`, `data-session` with `sessionId`, `id` and `title`, then the
//! turn's events; `turnId` where `--turn-id-in` puts it), ended by `data: [DONE]` once the
//! turn has ended. The stream stays
//! open while an approval is pending. The `drop-stream`, `bad-frame` and `late-session`
//! faults act here.

use crate::events::{render, Path};
use crate::faults::Fault;
use crate::state::AppState;
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use futures::stream::Stream;
use serde_json::{json, Value};
use std::convert::Infallible;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;

/// Streams the turn from log index `from`.
pub fn respond(state: AppState, session_id: String, turn_id: String, from: usize) -> Response {
    let (tx, rx) = mpsc::channel::<Event>(64);
    tokio::spawn(follow(state, session_id, turn_id, from, tx));
    let stream: std::pin::Pin<Box<dyn Stream<Item = Result<Event, Infallible>> + Send>> =
        Box::pin(futures::StreamExt::map(ReceiverStream::new(rx), Ok));
    Sse::new(stream).into_response()
}

fn frame(v: &Value) -> Event {
    Event::default().data(v.to_string())
}

/// Sends one frame, with the stream faults. `false` when the stream is over. Under
/// `--shapes makers` a `: keepalive` comment line goes before every frame, as the makers'
/// client is written to skip them between frames.
async fn send(state: &AppState, tx: &mpsc::Sender<Event>, v: &Value) -> bool {
    if state.shapes() == crate::Shapes::Makers
        && tx
            .send(Event::default().comment("keepalive"))
            .await
            .is_err()
    {
        return false;
    }
    if state.faults().roll(Fault::BadFrame)
        && tx.send(Event::default().data("{not json")).await.is_err()
    {
        return false;
    }
    if tx.send(frame(v)).await.is_err() {
        return false;
    }
    !state.faults().roll(Fault::DropStream)
}

async fn follow(
    state: AppState,
    session_id: String,
    turn_id: String,
    mut next: usize,
    tx: mpsc::Sender<Event>,
) {
    let places = state.turn_id_in();
    let mut start = json!({ "type": "start", "messageId": state.new_id("msg_") });
    if places.start {
        start["turnId"] = json!(turn_id);
    }
    if !send(&state, &tx, &start).await {
        return;
    }
    // The spec names `sessionId`; the real service was seen sending `id` and `title`, and the
    // makers' client reads only those two (`--shapes makers` sends nothing else).
    let title = state
        .db()
        .sessions
        .get(&session_id)
        .and_then(|s| s.title.clone());
    let mut data = match state.shapes() {
        crate::Shapes::Makers => json!({ "id": session_id, "title": title }),
        crate::Shapes::Contract => {
            json!({ "sessionId": session_id, "id": session_id, "title": title })
        }
    };
    if places.session {
        data["turnId"] = json!(turn_id);
    }
    let session = json!({ "type": "data-session", "data": data });
    if state.faults().roll(Fault::LateSession) {
        tokio::time::sleep(state.faults().late_session_delay()).await;
    }
    if !send(&state, &tx, &session).await {
        return;
    }
    let mut changes = state.changes();
    loop {
        changes.borrow_and_update();
        let (entries, ended) = {
            let db = state.db();
            let Some(t) = db.turns.get(&turn_id) else {
                return;
            };
            let from = next.min(t.log.len());
            (t.log[from..].to_vec(), t.ended)
        };
        next += entries.len();
        for e in &entries {
            for v in render(e, Path::Stream) {
                if !send(&state, &tx, &v).await {
                    return;
                }
            }
        }
        if ended {
            let _ = tx.send(Event::default().data("[DONE]")).await;
            return;
        }
        tokio::select! {
            r = changes.changed() => if r.is_err() { return; },
            _ = tx.closed() => return,
        }
    }
}
