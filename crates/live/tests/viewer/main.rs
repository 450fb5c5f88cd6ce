//! The viewer against the simulator over real WebSockets on loopback: connecting, the first
//! frame, stats, `sync` echoes and view-only (seen by a recording relay), pause and coalescing,
//! and every way a stream ends (expired link, malformed frame, bad token, asleep, VNC).

mod support;

use porthole_live::{DrawOp, EndReason, Frame, Status, Viewer, ViewerEvent};
use std::sync::Arc;
use support::*;

/// Events until the next frame; statuses on the way are returned too.
async fn next_frame(viewer: &Viewer) -> (Frame, Vec<Status>) {
    let mut statuses = Vec::new();
    loop {
        match next_event(viewer).await {
            Some(ViewerEvent::Frame(f)) => return (f, statuses),
            Some(ViewerEvent::Status(s)) => statuses.push(s),
            None => panic!("the viewer ended before a frame; statuses: {statuses:?}"),
        }
    }
}

/// Events until a status matching `want`, acknowledging frames on the way.
async fn status_where(viewer: &Viewer, want: impl Fn(&Status) -> bool) -> Status {
    let control = viewer.control();
    loop {
        match next_event(viewer).await {
            Some(ViewerEvent::Frame(f)) => control.ack(f.seq),
            Some(ViewerEvent::Status(s)) if want(&s) => return s,
            Some(ViewerEvent::Status(_)) => {}
            None => panic!("the viewer ended before the awaited status"),
        }
    }
}

#[tokio::test]
async fn first_frame_is_the_whole_screen_as_jpeg_bytes_and_stats_count_it() {
    let sim = sim(0.01, "").await;
    let source = SimLive::new(&sim, "Design laptop").await;
    let viewer = Viewer::start(source.clone(), fast_options());

    let (frame, statuses) = next_frame(&viewer).await;
    assert_eq!(statuses.first(), Some(&Status::Connecting { attempt: 1 }));
    let Some(Status::Connected { width, height, .. }) = statuses.last().cloned() else {
        panic!("no Connected before the first frame: {statuses:?}");
    };
    assert!(width > 0 && height > 0);
    let jpeg = frame
        .ops
        .iter()
        .find_map(|op| match op {
            DrawOp::Image(i) if i.mimetype == "image/jpeg" => Some(i),
            _ => None,
        })
        .expect("the first frame carries a JPEG");
    assert_eq!((jpeg.layer, jpeg.x, jpeg.y), (0, 0, 0));
    assert!(
        jpeg.data.starts_with(&[0xFF, 0xD8]),
        "JPEG bytes, not base64"
    );
    assert_eq!(jpeg.size, Some((width, height)));
    let screen = DrawOp::Instruction(porthole_live::codec::Instruction::new(
        "size",
        ["0".to_owned(), width.to_string(), height.to_string()],
    ));
    assert!(frame.ops.contains(&screen));
    assert!(frame
        .ops
        .iter()
        .any(|op| matches!(op, DrawOp::Instruction(i) if i.opcode == "cursor")));

    let control = viewer.control();
    control.ack(frame.seq);
    let (second, _) = next_frame(&viewer).await;
    assert!(second.seq > frame.seq);
    let stats = control.stats();
    assert_eq!(stats.frames_delivered, 2);
    assert!(stats.frames_received >= 2);
    assert!(stats.bytes_received as usize > jpeg.data.len());
    assert!(stats.latency_last.is_some() && stats.latency_p50.is_some());
    assert_eq!(stats.connections, 1);
    assert_eq!(source.calls(), 1);
}

#[tokio::test]
async fn only_acknowledged_received_syncs_go_upstream_and_nothing_else_but_keepalives() {
    let sim = sim(0.01, "").await;
    let ws_base = sim.base_url.replacen("http", "ws", 1);
    let recorder = Recorder::start(&ws_base).await;
    let mut source = SimLive::new(&sim, "Design laptop").await;
    let relay = format!("ws://{}", recorder.addr);
    source.rewrite = Arc::new(move |url| url.replacen(&ws_base, &relay, 1));
    let viewer = Viewer::start(source, fast_options());
    let control = viewer.control();

    let mut acked = Vec::new();
    for _ in 0..8 {
        let (frame, _) = next_frame(&viewer).await;
        control.ack(frame.seq);
        acked.push(frame.sync_timestamp);
    }
    // Two frames taken and never acknowledged: their syncs must not be echoed.
    let (unacked_1, _) = next_frame(&viewer).await;
    let (unacked_2, _) = next_frame(&viewer).await;
    control.close();
    assert!(matches!(
        status_where(&viewer, |s| matches!(s, Status::Ended(_))).await,
        Status::Ended(EndReason::Stopped)
    ));
    assert!(next_event(&viewer).await.is_none());

    // The relay may still be passing the last message on.
    let (upstream, server_syncs) = tokio::time::timeout(PATIENCE, async {
        loop {
            let (upstream, syncs) = recorder.upstream_and_syncs();
            if upstream.iter().any(|(op, _)| op == "disconnect") {
                return (upstream, syncs);
            }
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
    })
    .await
    .expect("the viewer said disconnect");
    let echoes: Vec<&String> = upstream
        .iter()
        .filter(|(op, _)| op == "sync")
        .map(|(_, args)| &args[0])
        .collect();
    assert_eq!(echoes, acked.iter().collect::<Vec<_>>());
    for ts in [&unacked_1.sync_timestamp, &unacked_2.sync_timestamp] {
        assert!(!echoes.contains(&ts));
    }
    for echo in &echoes {
        assert!(server_syncs.contains(echo), "echoed {echo}, never sent");
    }
    for (opcode, args) in &upstream {
        match opcode.as_str() {
            "sync" => assert_eq!(args.len(), 1),
            "nop" | "disconnect" => assert!(args.is_empty()),
            "" => assert_eq!(args.first().map(String::as_str), Some("ping")),
            other => panic!("the viewer sent `{other}` upstream"),
        }
    }
    assert!(upstream.iter().any(|(op, _)| op == "nop"), "keepalive sent");
    assert_eq!(
        upstream.last().map(|(op, _)| op.as_str()),
        Some("disconnect")
    );
}

#[tokio::test]
async fn a_paused_viewer_coalesces_frames_and_counts_them_dropped() {
    let sim = sim(0.01, "").await;
    let source = SimLive::new(&sim, "Design laptop").await;
    let viewer = Viewer::start(source, fast_options());
    let control = viewer.control();
    let (first, _) = next_frame(&viewer).await;
    control.pause();
    control.ack(first.seq);
    // The server sends at most 2 frames past the last echo; wait until both are here.
    tokio::time::timeout(PATIENCE, async {
        while control.stats().frames_received < 3 {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
    })
    .await
    .expect("frames keep arriving while paused");
    control.resume();
    let (merged, _) = next_frame(&viewer).await;
    assert_eq!(merged.upstream_frames, 2);
    assert_eq!(control.stats().frames_dropped, 1);
    assert_eq!(control.stats().frames_delivered, 2);
}

#[tokio::test]
async fn an_expired_link_ends_the_stream_and_the_viewer_fetches_a_new_one() {
    // Links live 15 minutes; at this scale, under a second.
    let sim = sim(0.001, "").await;
    let source = SimLive::new(&sim, "Design laptop").await;
    let viewer = Viewer::start(source.clone(), fast_options());
    let Status::Reconnecting { reason, .. } =
        status_where(&viewer, |s| matches!(s, Status::Reconnecting { .. })).await
    else {
        unreachable!()
    };
    assert_eq!(reason.code(), "token_expired", "{reason:?}");
    assert!(reason.to_string().contains("expired"));
    let Status::Connected { connection, .. } =
        status_where(&viewer, |s| matches!(s, Status::Connected { .. })).await
    else {
        unreachable!()
    };
    assert_eq!(connection, 2);
    let (frame, _) = next_frame(&viewer).await;
    assert_eq!(frame.connection, 2);
    assert_eq!(source.calls(), 2);
}

#[tokio::test]
async fn a_malformed_frame_is_reported_as_garbled_not_a_panic() {
    let sim = sim(0.01, "bad-frame=1").await;
    let source = SimLive::new(&sim, "Design laptop").await;
    let viewer = Viewer::start(source, fast_options());
    let Status::Reconnecting { reason, .. } =
        status_where(&viewer, |s| matches!(s, Status::Reconnecting { .. })).await
    else {
        unreachable!()
    };
    let EndReason::Garbled { detail } = &reason else {
        panic!("expected a garbled stream, got {reason:?}");
    };
    assert!(detail.contains("middle of an instruction"), "{detail}");
    assert!(reason
        .to_string()
        .starts_with("The live view sent something unreadable"));
}

#[tokio::test]
async fn a_spoiled_token_is_rejected_with_its_reason() {
    let sim = sim(0.01, "").await;
    let mut source = SimLive::new(&sim, "Design laptop").await;
    source.rewrite = Arc::new(|url| url.replacen("token=", "token=x", 1));
    let options = porthole_live::ViewerOptions {
        max_failed_attempts: Some(2),
        ..fast_options()
    };
    let viewer = Viewer::start(source.clone(), options);
    let reconnecting = status_where(&viewer, |s| matches!(s, Status::Reconnecting { .. })).await;
    assert!(
        matches!(&reconnecting, Status::Reconnecting { reason: EndReason::TokenRejected { message }, .. } if message.contains("not valid")),
        "{reconnecting:?}"
    );
    let ended = status_where(&viewer, |s| matches!(s, Status::Ended(_))).await;
    assert!(matches!(
        ended,
        Status::Ended(EndReason::TokenRejected { .. })
    ));
    assert!(next_event(&viewer).await.is_none());
    assert_eq!(source.calls(), 2);
}

#[tokio::test]
async fn an_asleep_computer_stops_the_viewer_so_the_app_can_offer_wake() {
    let sim = sim(0.01, "").await;
    let source = SimLive::new(&sim, "Research box").await;
    let viewer = Viewer::start(source.clone(), fast_options());
    let ended = status_where(&viewer, |s| matches!(s, Status::Ended(_))).await;
    assert_eq!(ended, Status::Ended(EndReason::Asleep));
    assert!(next_event(&viewer).await.is_none());
    assert_eq!(source.calls(), 1);
}

#[tokio::test]
async fn a_vnc_server_is_reported_as_an_unsupported_stream() {
    for agree in [false, true] {
        let url = rfb_server(agree).await;
        let viewer = Viewer::start(FixedUrl(url), fast_options());
        let ended = status_where(&viewer, |s| matches!(s, Status::Ended(_))).await;
        let Status::Ended(reason @ EndReason::Unsupported { .. }) = ended else {
            panic!("expected unsupported, got {ended:?}");
        };
        assert!(reason
            .to_string()
            .starts_with("This stream type is not supported"));
    }
}

#[tokio::test]
async fn a_server_ping_is_answered_in_kind() {
    let (url, answer) = pinging_peer(
        "0.,36.6e2d1b6c-7d45-4c1c-9d6b-9f3a2a1b0c4d;0.,4.ping,13.1763770000000;\
         4.size,1.0,2.10,2.10;4.sync,1.7,1.1;",
    )
    .await;
    let viewer = Viewer::start(FixedUrl(url), fast_options());
    let (frame, _) = next_frame(&viewer).await;
    assert_eq!(frame.sync_timestamp, "7");
    let answer = tokio::time::timeout(PATIENCE, answer)
        .await
        .expect("answered in time")
        .expect("peer saw an answer");
    assert_eq!(answer, "0.,4.ping,13.1763770000000;");
}

#[tokio::test]
async fn a_computer_going_to_sleep_ends_the_stream_then_the_viewer_reports_asleep() {
    let sim = sim(0.01, "").await;
    let source = SimLive::new(&sim, "Design laptop").await;
    let viewer = Viewer::start(source.clone(), fast_options());
    let (frame, _) = next_frame(&viewer).await;
    viewer.control().ack(frame.seq);
    let owner = sim.account("ada").user_id.clone();
    assert!(sim.state().hibernate(&owner, &source.machine_id));
    let reconnecting = status_where(&viewer, |s| matches!(s, Status::Reconnecting { .. })).await;
    assert!(
        matches!(
            &reconnecting,
            Status::Reconnecting {
                reason: EndReason::MachineStopped { .. },
                ..
            }
        ),
        "{reconnecting:?}"
    );
    let ended = status_where(&viewer, |s| matches!(s, Status::Ended(_))).await;
    assert_eq!(ended, Status::Ended(EndReason::Asleep));
    assert!(next_event(&viewer).await.is_none());
    assert_eq!(source.calls(), 2);
}

#[tokio::test]
async fn a_stream_claiming_a_hundred_huge_pictures_ends_before_any_reaches_the_app() {
    // 100 pictures whose headers claim 65,535 × 65,535 pixels (17 GB each once decoded) in one
    // frame, on a screen announced at connect as 1280 × 800 (`FixedUrl`).
    let mut header = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    header.extend_from_slice(&65_535u32.to_be_bytes());
    header.extend_from_slice(&65_535u32.to_be_bytes());
    let data = base64::Engine::encode(&base64::engine::general_purpose::STANDARD, header);
    let mut script = String::new();
    for stream in 100..200 {
        script += &format!(
            "3.img,3.{stream},2.14,1.0,9.image/png,1.0,1.0;4.blob,3.{stream},{}.{data};3.end,3.{stream};",
            data.len()
        );
    }
    script += "4.sync,1.7,1.1;";
    let viewer = Viewer::start(FixedUrl(scripted_peer(script).await), fast_options());
    let mut statuses = Vec::new();
    let reason = loop {
        match next_event(&viewer).await {
            Some(ViewerEvent::Frame(f)) => panic!("a frame reached the app: {} ops", f.ops.len()),
            Some(ViewerEvent::Status(Status::Reconnecting { reason, .. })) => break reason,
            Some(ViewerEvent::Status(s)) => statuses.push(s),
            None => panic!("ended without a reason: {statuses:?}"),
        }
    };
    let EndReason::Garbled { detail } = &reason else {
        panic!("expected a refused stream, got {reason:?}");
    };
    assert_eq!(
        detail,
        "a picture of 65535 × 65535 pixels, larger than the 1280 × 800 screen"
    );
}
