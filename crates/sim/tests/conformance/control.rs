//! Direct control: the lease state machine ("Control lease"), the exec block rules ("Exec
//! block") and the Control rows of Errors, over real HTTP. How leases end and what limits
//! them is in `control_limits.rs`; the helpers here serve both.

use crate::support::*;
use porthole_sim::Config;
use serde_json::{json, Value};
use std::time::Duration;

pub(crate) fn base(m: &str) -> String {
    format!("/v1/machines/{m}/control")
}

pub(crate) async fn open(p: &Peer, who: &str, m: &str) -> (u16, Value) {
    send(p.post(&base(m), who)).await
}

pub(crate) async fn exec(p: &Peer, who: &str, m: &str, code: &str) -> (u16, Value) {
    exec_t(p, who, m, code, 120_000).await
}

pub(crate) async fn exec_t(
    p: &Peer,
    who: &str,
    m: &str,
    code: &str,
    timeout_ms: u64,
) -> (u16, Value) {
    send(
        p.post(&format!("{}/exec", base(m)), who)
            .json(&json!({ "code": code, "timeoutMs": timeout_ms })),
    )
    .await
}

pub(crate) async fn lease(p: &Peer, who: &str, m: &str) -> Value {
    let (s, b) = send(p.get(&base(m), who)).await;
    assert_eq!(s, 200, "{b}");
    b
}

/// Polls GET until the lease is closed; returns its body.
pub(crate) async fn until_closed(p: &Peer, who: &str, m: &str) -> Value {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let b = lease(p, who, m).await;
        if b["status"] == "closed" {
            return b;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "lease never closed: {b}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

pub(crate) fn var_names(b: &Value) -> Vec<String> {
    b["variables"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| v["name"].as_str().map(str::to_owned))
        .collect()
}

#[tokio::test]
async fn a_lease_opens_runs_blocks_that_keep_vars_and_closes() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let (s, b) = send(p.get(&base(&m), "ada")).await;
    assert_eq!(
        (s, b["error"].as_str()),
        (404, Some("control_not_open")),
        "GET before any lease"
    );
    let (s, opened) = open(&p, "ada", &m).await;
    assert_eq!(s, 201, "{opened}");
    assert_eq!(
        opened,
        json!({ "machineId": m, "expiresAfterIdleSec": 600 })
    );
    let (s, again) = open(&p, "ada", &m).await;
    assert_eq!(
        (s, &again),
        (200, &opened),
        "open while open answers 200 with the same body"
    );
    let l = lease(&p, "ada", &m).await;
    assert_eq!(
        (l["status"].as_str(), l["lastExecAt"].is_null()),
        (Some("open"), true),
        "{l}"
    );

    let (s, b) = exec(
        &p,
        "ada",
        &m,
        "var x = 41; console.log('x is', x, {ok: true}); x + 1",
    )
    .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(b["result"], 42);
    assert_eq!(b["logs"], json!(["x is 41 {\"ok\":true}"]));
    assert!(b.get("error").is_none(), "{b}");
    assert_eq!(
        b["variables"],
        json!([{ "name": "x", "type": "number", "preview": "41" }])
    );
    assert!(b["durationMs"].is_u64());
    assert!(
        b["observations"].get("screenshot").is_none(),
        "no screenshot unless captured"
    );
    let l = lease(&p, "ada", &m).await;
    assert!(
        l["lastExecAt"]
            .as_i64()
            .is_some_and(|t| t >= l["createdAt"].as_i64().unwrap_or(i64::MAX)),
        "{l}"
    );

    let (s, b) = exec(&p, "ada", &m, "var y = 'kept'; throw new TypeError('nope')").await;
    assert_eq!(s, 200, "a block that throws is still 200");
    assert_eq!(b["error"]["kind"], "exception");
    assert!(
        b["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("nope"),
        "{b}"
    );
    assert_eq!(
        var_names(&b),
        ["x", "y"],
        "variables set before the throw are kept"
    );
    let (_, b) = exec(&p, "ada", &m, "x + ':' + y").await;
    assert_eq!(b["result"], "41:kept");

    let res = p
        .http
        .delete(p.url(&base(&m)))
        .bearer_auth(p.account("ada").api_key.as_deref().unwrap_or(""))
        .send()
        .await
        .expect("delete");
    assert_eq!(res.status().as_u16(), 204);
    let l = lease(&p, "ada", &m).await;
    assert_eq!(
        (l["status"].as_str(), l["closedReason"].as_str()),
        (Some("closed"), Some("closed")),
        "{l}"
    );
    let (s, b) = exec(&p, "ada", &m, "1").await;
    assert_eq!(
        (s, b["error"].as_str(), b["reason"].as_str()),
        (410, Some("control_closed"), Some("closed")),
        "{b}"
    );
    assert!(b["message"].is_string());
    let res = p
        .http
        .delete(p.url(&base(&m)))
        .bearer_auth(p.account("ada").api_key.as_deref().unwrap_or(""))
        .send()
        .await
        .expect("delete");
    assert_eq!(
        res.status().as_u16(),
        204,
        "DELETE without an open lease is 204 too"
    );

    let (s, _) = open(&p, "ada", &m).await;
    assert_eq!(s, 201, "a closed lease opens fresh");
    let (_, b) = exec(&p, "ada", &m, "typeof x").await;
    assert_eq!(b["result"], "undefined", "closing cleared the REPL");
}

#[tokio::test]
async fn errors_of_the_control_rows() {
    let p = start().await;
    let ada = p.machine_id("ada", "Design laptop").await;
    let own = p.machine_id("ada", "Ada's MacBook").await;
    let (s, b) = open(&p, "ada", "bad$id").await;
    assert_eq!(
        (s, b["error"].as_str()),
        (400, Some("invalid_machine")),
        "{b}"
    );
    let (s, b) = open(&p, "ada", "m_doesnotexist").await;
    assert_eq!(
        (s, b["error"].as_str()),
        (404, Some("machine_not_found")),
        "{b}"
    );
    let (s, b) = open(&p, "fred", &ada).await;
    assert_eq!(
        (s, b["error"].as_str()),
        (404, Some("machine_not_found")),
        "another account's machine is missing"
    );
    let (s, b) = open(&p, "ada", &own).await;
    assert_eq!(
        (s, b["error"].as_str()),
        (400, Some("machine_not_supported")),
        "{b}"
    );
    let (s, b) = exec(&p, "ada", &ada, "1").await;
    assert_eq!(
        (s, b["error"].as_str()),
        (404, Some("control_not_open")),
        "{b}"
    );
    let (s, b) = send(p.post(&format!("{}/interrupt", base(&ada)), "ada")).await;
    assert_eq!(
        (s, b["error"].as_str()),
        (404, Some("control_not_open")),
        "{b}"
    );

    let nophone = p.account("nophone").id_token.clone();
    let free = format!("free-{}", p.account("nophone").user_id);
    let (s, b) = send(p.http.post(p.url(&base(&free))).bearer_auth(nophone)).await;
    assert_eq!(
        (s, b["error"].as_str()),
        (403, Some("phone_verification_required")),
        "{b}"
    );

    assert_eq!(open(&p, "ada", &ada).await.0, 201);
    let url = format!("{}/exec", base(&ada));
    for (body, expect) in [
        (json!({}), "`code` is required"),
        (json!({ "code": 5 }), "must be a string"),
        (json!({ "code": "1", "timeoutMs": 999 }), "1000"),
        (json!({ "code": "1", "timeoutMs": 300_001 }), "300000"),
        (
            json!({ "code": "1", "extra": true }),
            "Unknown field `extra`",
        ),
        (json!({ "code": "x".repeat(200_001) }), "200000"),
    ] {
        let (s, b) = send(p.post(&url, "ada").json(&body)).await;
        assert_eq!((s, b["error"].as_str()), (400, Some("invalid_body")), "{b}");
        let details = b["details"].as_array().cloned().unwrap_or_default();
        assert!(
            details
                .iter()
                .any(|d| d.as_str().unwrap_or("").contains(expect)),
            "{expect}: {b}"
        );
    }
    let (s, b) = send(p.post(&url, "ada").body("{not json")).await;
    assert_eq!((s, b["error"].as_str()), (400, Some("invalid_body")), "{b}");
    let (s, b) = send(
        p.post(&url, "ada")
            .json(&json!({ "timeoutMs": "soon", "nope": 1 })),
    )
    .await;
    assert_eq!(s, 400);
    assert_eq!(
        b["details"].as_array().map(Vec::len),
        Some(3),
        "every problem listed: {b}"
    );
}

#[tokio::test]
async fn results_logs_screenshots_and_async_main() {
    // Real time: at the suite's hundredth, a block's default 120 s budget is 1.2 s, which a
    // screenshot's drawing and encoding can pass on two cores busy with other tests (the
    // block then times out and its result is null). Nothing here waits on the service's
    // clock, so the full budget costs no time.
    let p = start_with(Config {
        time_scale: 1.0,
        ..Config::default()
    })
    .await;
    let m = p.machine_id("ada", "Design laptop").await;
    assert_eq!(open(&p, "ada", &m).await.0, 201);
    let code = "async function main(params = { text: 'hello' }) {\n  await machine.open('Notes');\n  await machine.type(params.text);\n  return await machine.readText('Notes');\n}\nawait main({ text: 'typed by a block' })";
    let (s, b) = exec(&p, "ada", &m, code).await;
    assert_eq!((s, &b["result"]), (200, &json!("typed by a block")), "{b}");
    let main = b["variables"]
        .as_array()
        .and_then(|v| v.iter().find(|v| v["name"] == "main"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(main["type"], "function");

    let (_, b) = exec(&p, "ada", &m, "machine.screenshot()").await;
    assert_eq!(
        b["result"],
        json!({ "width": 1280, "height": 800, "mimeType": "image/jpeg" }),
        "{b}"
    );
    let shot = &b["observations"]["screenshot"];
    assert_eq!(shot["mimeType"], "image/jpeg");
    use base64::Engine as _;
    let jpeg = base64::engine::general_purpose::STANDARD
        .decode(shot["base64"].as_str().unwrap_or(""))
        .unwrap_or_default();
    assert!(
        jpeg.starts_with(&[0xFF, 0xD8]) && jpeg.len() > 10_000,
        "a real JPEG of the desktop"
    );

    let (_, b) = exec(&p, "ada", &m, "'x'.repeat(300000)").await;
    let r = b["result"].as_str().unwrap_or("");
    assert!(
        r.len() <= 256 * 1024 && r.len() > 200_000,
        "over 256 KB comes back as a cut string"
    );
    let (_, b) = exec(
        &p,
        "ada",
        &m,
        "for (var i = 0; i < 250; i++) console.log('line ' + i + ' ' + 'y'.repeat(3000)); i",
    )
    .await;
    let logs = b["logs"].as_array().cloned().unwrap_or_default();
    assert_eq!(logs.len(), 200, "at most 200 lines");
    assert!(
        logs.iter()
            .all(|l| l.as_str().unwrap_or("").chars().count() <= 2001),
        "lines capped at 2,000 characters"
    );
    assert!(
        logs.last()
            .and_then(Value::as_str)
            .unwrap_or("")
            .starts_with("line 249"),
        "oldest first, newest kept"
    );
    let (_, b) = exec(&p, "ada", &m, "machine.snapshot()").await;
    assert!(
        b["result"]
            .as_str()
            .unwrap_or("")
            .contains("window \"Notes\""),
        "a snapshot is its outline text: {b}"
    );
    let (_, b) = exec(&p, "ada", &m, "await Promise.resolve(7)").await;
    assert_eq!(b["result"], 7, "top-level await: {b}");
}

#[tokio::test]
async fn timeouts_interrupts_and_the_queue() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    assert_eq!(open(&p, "ada", &m).await.0, 201);
    assert_eq!(exec(&p, "ada", &m, "var keep = 1").await.0, 200);
    let (_, b) = exec_t(&p, "ada", &m, "while (true) {}", 1_000).await;
    assert_eq!(b["error"]["kind"], "timeout", "{b}");
    let (_, b) = exec(&p, "ada", &m, "keep").await;
    assert_eq!(b["result"], 1, "a stopped block keeps the REPL's variables");

    let (s, b) = send(p.post(&format!("{}/interrupt", base(&m)), "ada")).await;
    assert_eq!(
        (s, &b),
        (202, &json!({ "interrupted": false })),
        "nothing running"
    );
    let running = {
        let p2 = p.http.clone();
        let url = p.url(&format!("{}/exec", base(&m)));
        let key = p.account("ada").api_key.clone().unwrap_or_default();
        tokio::spawn(async move {
            send(
                p2.post(url)
                    .bearer_auth(key)
                    .json(&json!({ "code": "while (true) {}", "timeoutMs": 300000 })),
            )
            .await
        })
    };
    let mut interrupted = false;
    for _ in 0..200 {
        let (s, b) = send(p.post(&format!("{}/interrupt", base(&m)), "ada")).await;
        assert_eq!(s, 202);
        if b["interrupted"] == true {
            interrupted = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(interrupted, "the running block was interrupted");
    let (s, b) = running.await.expect("exec task");
    assert_eq!(
        (s, &b["error"]["kind"]),
        (200, &json!("interrupted")),
        "{b}"
    );

    // One block at a time: the second waits, and its wait counts toward its own timeoutMs.
    let first = {
        let p2 = p.http.clone();
        let url = p.url(&format!("{}/exec", base(&m)));
        let key = p.account("ada").api_key.clone().unwrap_or_default();
        tokio::spawn(async move {
            send(
                p2.post(url)
                    .bearer_auth(key)
                    .json(&json!({ "code": "machine.wait(60000); 'first'", "timeoutMs": 300000 })),
            )
            .await
        })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;
    let (_, second) = exec_t(&p, "ada", &m, "var ran = true; 'second'", 1_000).await;
    assert_eq!(
        second["error"]["kind"], "timeout",
        "timed out in the queue: {second}"
    );
    let (_, b) = first.await.expect("first");
    assert_eq!(b["result"], "first");
    let (_, b) = exec(&p, "ada", &m, "typeof ran").await;
    assert_eq!(b["result"], "undefined", "the queued block never ran");
}

#[tokio::test]
async fn a_block_that_will_not_stop_costs_the_repl_and_a_silent_computer_closes_the_lease() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    assert_eq!(open(&p, "ada", &m).await.0, 201);
    exec(&p, "ada", &m, "var before = 1").await;
    let (s, b) = exec_t(&p, "ada", &m, "machine.hang(100000)", 1_000).await;
    assert_eq!((s, &b["error"]["kind"]), (200, &json!("timeout")), "{b}");
    assert!(
        b["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("restarted"),
        "{b}"
    );
    let (_, b) = exec(&p, "ada", &m, "typeof before").await;
    assert_eq!(
        b["result"], "undefined",
        "the REPL was restarted; earlier variables are gone"
    );

    let (s, b) = exec_t(
        &p,
        "ada",
        &m,
        "machine.hang(1000000, { wholeComputer: true })",
        1_000,
    )
    .await;
    assert_eq!(
        (s, b["error"].as_str(), b["reason"].as_str()),
        (410, Some("control_closed"), Some("unresponsive")),
        "{b}"
    );
    assert_eq!(lease(&p, "ada", &m).await["closedReason"], "unresponsive");
    let (s, b) = exec(&p, "ada", &m, "1").await;
    assert_eq!((s, b["reason"].as_str()), (410, Some("unresponsive")));
    assert_eq!(
        open(&p, "ada", &m).await.0,
        201,
        "the next open starts a fresh lease"
    );
}
