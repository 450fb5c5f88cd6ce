//! Direct control: how leases end and what limits them — idleness, an agent task taking the
//! computer, the free computer's claim, a service restart, and the hourly and daily limits —
//! over real HTTP.

use crate::control::{base, exec, lease, open, until_closed};
use crate::support::*;
use porthole_sim::Config;
use serde_json::{json, Value};
use std::time::Duration;

#[tokio::test]
async fn an_idle_lease_times_out() {
    // 10 documented minutes are 0.6 s here.
    let p = start_with(Config {
        time_scale: 0.001,
        ..Config::default()
    })
    .await;
    let m = p.machine_id("ada", "Design laptop").await;
    assert_eq!(open(&p, "ada", &m).await.0, 201);
    assert_eq!(exec(&p, "ada", &m, "1").await.0, 200);
    let b = until_closed(&p, "ada", &m).await;
    assert_eq!(b["closedReason"], "idle_timeout", "{b}");
    let (s, b) = exec(&p, "ada", &m, "1").await;
    assert_eq!((s, b["reason"].as_str()), (410, Some("idle_timeout")));
}

#[tokio::test]
async fn an_agent_task_takes_a_quiet_lease_and_waits_out_a_busy_one() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    // Quiet for two (scaled) minutes: the agent takes the machine.
    assert_eq!(open(&p, "ada", &m).await.0, 201);
    tokio::time::sleep(Duration::from_millis(1_400)).await;
    let t = p
        .start_task(
            "ada",
            json!({ "message": "Look up the weather", "machineId": m }),
        )
        .await;
    let b = until_closed(&p, "ada", &m).await;
    assert_eq!(b["closedReason"], "lock_lost", "{b}");
    let (s, b) = exec(&p, "ada", &m, "1").await;
    assert_eq!((s, b["reason"].as_str()), (410, Some("lock_lost")));
    p.poll_until(
        "ada",
        t["sessionId"].as_str().unwrap_or(""),
        &["idle", "error"],
    )
    .await;

    // Busy lease: the task waits, and the lease releases after two idle minutes.
    assert_eq!(open(&p, "ada", &m).await.0, 201);
    assert_eq!(exec(&p, "ada", &m, "var busy = 1").await.0, 200);
    let t = p
        .start_task(
            "ada",
            json!({ "message": "Look up the news", "machineId": m }),
        )
        .await;
    let b = until_closed(&p, "ada", &m).await;
    assert_eq!(b["closedReason"], "idle_timeout", "{b}");
    let (_, done) = p
        .poll_until(
            "ada",
            t["sessionId"].as_str().unwrap_or(""),
            &["idle", "error"],
        )
        .await;
    assert_eq!(
        done["status"], "idle",
        "the task ran once the lease let go: {done}"
    );
}

#[tokio::test]
async fn open_waits_for_an_agent_task_and_says_busy_when_it_does_not_end() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    p.start_task(
        "ada",
        json!({ "message": "Take your time and sort the photos", "machineId": m }),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    let res = p.post(&base(&m), "ada").send().await.expect("open");
    assert_eq!(res.status().as_u16(), 409);
    let retry = res
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    assert!(retry.is_some_and(|r| r >= 1), "Retry-After is set");
    let b: Value = res.json().await.unwrap_or_default();
    assert_eq!(b["error"], "machine_busy", "{b}");
    let (s, _) = send(p.get(&base(&m), "ada")).await;
    assert_eq!(s, 404, "a lease that failed to open is not shown");

    let other = p.machine_id("ada", "Research box").await;
    let (s, b) = open(&p, "ada", &other).await;
    assert_eq!(s, 201, "a hibernated computer is started first: {b}");
    let (_, list) = send(p.get("/v1/agents/machines", "ada")).await;
    let row = list["machines"]
        .as_array()
        .and_then(|ms| ms.iter().find(|r| r["machineId"] == other.as_str()))
        .cloned()
        .unwrap_or_default();
    assert_eq!(row["status"], "active", "{row}");
}

#[tokio::test]
async fn the_free_computer_is_claimed_by_open_and_deleted_when_the_lease_closes() {
    let p = start().await;
    let free = format!("free-{}", p.account("fred").user_id);
    let (s, b) = open(&p, "fred", &free).await;
    assert_eq!(s, 201, "{b}");
    let (_, b) = exec(
        &p,
        "fred",
        &free,
        "machine.open('Notes'); machine.type('free'); machine.readText()",
    )
    .await;
    assert!(b["result"].as_str().unwrap_or("").contains("free"), "{b}");
    let key = p.account("fred").api_key.clone().unwrap_or_default();
    let res = p
        .http
        .delete(p.url(&base(&free)))
        .bearer_auth(key)
        .send()
        .await
        .expect("delete");
    assert_eq!(res.status().as_u16(), 204);
    let (_, list) = send(p.get("/v1/agents/machines", "fred")).await;
    let row = list["machines"]
        .as_array()
        .and_then(|ms| ms.iter().find(|r| r["machineId"] == free.as_str()))
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        (row["online"].as_bool(), row["updatedAt"].as_i64()),
        (Some(false), Some(0)),
        "back to the synthetic row: {row}"
    );
    let (s, _) = open(&p, "fred", &free).await;
    assert_eq!(s, 201);
    let (_, b) = exec(&p, "fred", &free, "machine.readText()").await;
    assert_eq!(b["result"], "", "a fresh computer: {b}");
}

#[tokio::test]
async fn a_service_restart_closes_leases_with_shutdown() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    assert_eq!(open(&p, "ada", &m).await.0, 201);
    porthole_sim::control::shutdown_all(p.sim.state());
    assert_eq!(lease(&p, "ada", &m).await["closedReason"], "shutdown");
    let (s, b) = exec(&p, "ada", &m, "1").await;
    assert_eq!((s, b["reason"].as_str()), (410, Some("shutdown")));
}

#[tokio::test]
async fn thirty_leases_an_hour() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let key = p.account("ada").api_key.clone().unwrap_or_default();
    for i in 0..30 {
        assert_eq!(open(&p, "ada", &m).await.0, 201, "lease {i}");
        let res = p
            .http
            .delete(p.url(&base(&m)))
            .bearer_auth(&key)
            .send()
            .await
            .expect("delete");
        assert_eq!(res.status().as_u16(), 204);
    }
    let res = p.post(&base(&m), "ada").send().await.expect("open");
    assert_eq!(res.status().as_u16(), 429);
    assert!(res.headers().contains_key("retry-after"));
    let b: Value = res.json().await.unwrap_or_default();
    assert_eq!(b["error"], "rate_limited");
}

#[tokio::test]
async fn three_thousand_blocks_an_hour() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    assert_eq!(open(&p, "ada", &m).await.0, 201);
    let mut refused = None;
    for i in 0..3001 {
        let (s, b) = exec(&p, "ada", &m, "1").await;
        if s != 200 {
            refused = Some((i, s, b));
            break;
        }
    }
    let (i, s, b) = refused.expect("the limit is reached");
    assert_eq!(
        (i, s, b["error"].as_str()),
        (3000, 429, Some("rate_limited")),
        "{b}"
    );
}

#[tokio::test]
async fn the_free_plan_stops_at_its_daily_computer_time() {
    let p = start().await;
    let free = format!("free-{}", p.account("fred").user_id);
    let t = p
        .start_task(
            "fred",
            json!({ "message": "Run the marathon report", "machineId": free }),
        )
        .await;
    p.finish_turn("fred", t["turnId"].as_str().unwrap_or(""))
        .await;
    let (s, b) = open(&p, "fred", &free).await;
    assert_eq!(
        (s, b["error"].as_str()),
        (429, Some("budget_exhausted")),
        "{b}"
    );
}

#[tokio::test]
async fn a_computer_still_being_created_is_unavailable() {
    let p = start().await;
    let (s, b) = send(
        p.req(
            reqwest::Method::POST,
            "/v1/agents/machines",
            "ada",
            Cred::Token,
        )
        .json(&json!({ "name": "Build box" })),
    )
    .await;
    assert_eq!(s, 202, "{b}");
    let m = p.machine_id("ada", "Build box").await;
    let res = p.post(&base(&m), "ada").send().await.expect("open");
    assert_eq!(res.status().as_u16(), 503);
    assert!(
        res.headers().contains_key("retry-after"),
        "honor Retry-After"
    );
    let b: Value = res.json().await.unwrap_or_default();
    assert_eq!(b["error"], "machine_unavailable", "{b}");
}
