//! The live screen's states in the real window: the stream ending under the viewer and coming
//! back by itself (with the reason shown), the computer falling asleep and woken from the live
//! screen, and a snapshot saved where the person chose. What the window itself does (hidden,
//! full screen) is in `live_window.rs`; the helpers here serve both.

use porthole_e2e::{by_testid, text_of, App, AppOptions, Eventually, Result};
use porthole_sim::{Config, Sim};
use std::process::Command;
use std::time::{Duration, Instant};
use thirtyfour::prelude::*;

use crate::flows::select_machine;

/// Selects the computer and waits until its live screen shows a picture.
pub(crate) async fn watch(app: &App, machine: &str) -> Result<WebElement> {
    select_machine(app, machine).await?;
    let view = Eventually::new(&app.driver)
        .within(Duration::from_secs(30))
        .element("live-view")
        .await?;
    until(
        Duration::from_secs(30),
        "the live screen shows a picture",
        || async { Ok(picture(app).await?.is_some_and(|p| p.2 > 16)) },
    )
    .await?;
    Ok(view)
}

/// The screen's size and how many colours a sample of the canvas has (a blank or single-colour
/// canvas has a handful at most); `None` before anything is drawn.
pub(crate) async fn picture(app: &App) -> Result<Option<(u64, u64, u64)>> {
    const SAMPLE: &str = r#"
        const canvas = document.querySelector('[data-testid="live-canvas"]');
        const view = document.querySelector('[data-testid="live-view"]');
        const width = Number(view && view.dataset.width), height = Number(view && view.dataset.height);
        if (!canvas || !width || !height) return null;
        const data = canvas.getContext('2d').getImageData(0, 0, width, height).data;
        const colours = new Set();
        for (let i = 0; i < data.length && colours.size < 4096; i += 4 * 7)
          colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
        return [width, height, colours.size];
    "#;
    let v = app.driver.execute(SAMPLE, vec![]).await?.json().clone();
    let n = |i: usize| v.get(i).and_then(|x| x.as_u64()).unwrap_or(0);
    Ok((!v.is_null()).then(|| (n(0), n(1), n(2))))
}

/// Polls `check` until it holds; `what` says what never happened.
pub(crate) async fn until<F, Fut>(limit: Duration, what: &str, mut check: F) -> Result<()>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<bool>>,
{
    let start = Instant::now();
    loop {
        if check().await? {
            return Ok(());
        }
        if start.elapsed() > limit {
            return Err(format!("{what}: it never did").into());
        }
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
}

async fn phase(view: &WebElement) -> Result<String> {
    Ok(view.attr("data-phase").await?.unwrap_or_default())
}

/// Records every state the live screen shows, with its overlay's words, from now on (a state
/// can last under a second, shorter than a poll might catch).
async fn record_phases(app: &App) -> Result<()> {
    const RECORDER: &str = r#"
        const view = document.querySelector('[data-testid="live-view"]');
        window.__livePhases = [];
        const record = () => {
          const overlay = view.querySelector('[data-testid="live-overlay"]');
          const entry = view.dataset.phase + '|' + (overlay ? overlay.innerText.replace(/\s+/g, ' ') : '');
          const seen = window.__livePhases;
          if (seen[seen.length - 1] !== entry && seen.length < 500) seen.push(entry);
        };
        new MutationObserver(record).observe(view, { attributes: true, childList: true, subtree: true, characterData: true });
        record();
    "#;
    app.driver.execute(RECORDER, vec![]).await?;
    Ok(())
}

async fn recorded_phases(app: &App) -> Result<Vec<String>> {
    let v = app
        .driver
        .execute("return window.__livePhases || [];", vec![])
        .await?;
    Ok(serde_json::from_value(v.json().clone())?)
}

/// The first recorded state starting with `prefix`, then whether a later one starts with
/// `then`.
fn seen_then(phases: &[String], prefix: &str, then: &str) -> Option<(String, bool)> {
    let at = phases.iter().position(|p| p.starts_with(prefix))?;
    let later = phases[at + 1..].iter().any(|p| p.starts_with(then));
    Some((phases[at].clone(), later))
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_stream_that_ends_says_why_and_comes_back_by_itself() {
    // A live link lives 15 scaled minutes: at this scale 4.5 s, so the stream ends under the
    // viewer as a real one does when its link expires.
    let app = App::launch_with(AppOptions {
        demo_time_scale: Some(0.005),
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    let view = watch(&app, "Design laptop").await.expect("live");
    record_phases(&app).await.unwrap();

    let start = Instant::now();
    let mut shot = false;
    let phases = loop {
        // The overlay lasts about a second: caught for the screenshot when a poll sees it.
        if !shot && phase(&view).await.unwrap() == "reconnecting" {
            app.screenshot("live-reconnecting").await.unwrap();
            shot = true;
        }
        let phases = recorded_phases(&app).await.unwrap();
        if seen_then(&phases, "reconnecting|", "live|").is_some_and(|(_, later)| later) {
            break phases;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the screen never went from reconnecting back to live: {phases:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let (reconnecting, _) = seen_then(&phases, "reconnecting|", "live|").unwrap();
    assert!(
        reconnecting.contains("The live view's link expired.")
            && reconnecting.contains("Reconnecting in"),
        "the overlay says why and that it is reconnecting: {phases:?}"
    );
    // Live again, by itself, with the desktop on it.
    until(
        Duration::from_secs(30),
        "a picture after reconnecting",
        || async {
            Ok(phase(&view).await? == "live"
                && picture(&app)
                    .await?
                    .is_some_and(|p| p == (1280, 800, p.2) && p.2 > 16))
        },
    )
    .await
    .expect("live again");
    app.quit().await;
}

/// The computer's state as the three places show it, read at one instant: its sidebar row, the
/// conversation's header chip and the live screen.
async fn three_places(app: &App, machine: &str) -> Result<Vec<String>> {
    const READ: &str = r#"
        const row = [...document.querySelectorAll('[data-testid="machine-row"]')].find(
          (r) => r.querySelector('[data-testid="machine-name"]').textContent.trim() === arguments[0]);
        const chip = document.querySelector('[data-testid="status-chip"]');
        const view = document.querySelector('[data-testid="live-view"]');
        return [row, chip, view].map((el) => (el && el.dataset.computerState) || '');
    "#;
    let v = app
        .driver
        .execute(READ, vec![serde_json::json!(machine)])
        .await?;
    Ok(serde_json::from_value(v.json().clone())?)
}

/// Records the three places' state at every change from now on (each change is seen once all
/// of the page's updates for it are done), to show they never disagree, even for a moment.
async fn record_three_places(app: &App, machine: &str) -> Result<()> {
    const RECORDER: &str = r#"
        const name = arguments[0];
        window.__threePlaces = [];
        const record = () => {
          const row = [...document.querySelectorAll('[data-testid="machine-row"]')].find(
            (r) => r.querySelector('[data-testid="machine-name"]').textContent.trim() === name);
          const chip = document.querySelector('[data-testid="status-chip"]');
          const view = document.querySelector('[data-testid="live-view"]');
          const seen = [row, chip, view].map((el) => (el && el.dataset.computerState) || '').join(',');
          const all = window.__threePlaces;
          if (all[all.length - 1] !== seen && all.length < 500) all.push(seen);
        };
        new MutationObserver(record).observe(document.body,
          { attributes: true, attributeFilter: ['data-computer-state'], childList: true, subtree: true });
        record();
    "#;
    app.driver
        .execute(RECORDER, vec![serde_json::json!(machine)])
        .await?;
    Ok(())
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_computer_that_falls_asleep_is_woken_from_the_live_screen() {
    // The test's own simulator, so it can put the computer to sleep while it is watched.
    let sim = Sim::start(Config {
        time_scale: 0.05,
        ..Config::default()
    })
    .await
    .expect("simulator");
    let ada = sim.account("ada").clone();
    let app = App::launch_with(AppOptions {
        env: vec![
            ("PORTHOLE_DEMO_URL".into(), sim.base_url.clone()),
            (
                "PORTHOLE_DEMO_KEY".into(),
                ada.api_key.clone().unwrap_or_default(),
            ),
            ("PORTHOLE_DEMO_ID_TOKEN".into(), ada.id_token.clone()),
        ],
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    let view = watch(&app, "Design laptop").await.expect("live");

    let machine_id = sim
        .state()
        .db()
        .machines
        .iter()
        .find(|m| m.owner == ada.user_id && m.name.as_deref() == Some("Design laptop"))
        .map(|m| m.id.clone())
        .expect("the computer");
    assert!(sim.state().hibernate(&ada.user_id, &machine_id));

    let wait = Eventually::new(&app.driver).within(Duration::from_secs(30));
    until(
        Duration::from_secs(30),
        "the screen says asleep",
        || async { Ok(phase(&view).await? == "asleep") },
    )
    .await
    .expect("asleep");
    let reason = text_of(&view.find(by_testid("live-reason")).await.unwrap()).await;
    assert!(reason.contains("asleep"), "{reason}");
    let wake = wait.element("live-wake").await.expect("a Wake button");
    // The sidebar and the header say asleep too, not "Online" and "Ready".
    assert_eq!(
        three_places(&app, "Design laptop").await.unwrap(),
        ["asleep", "asleep", "asleep"],
        "row, header, live screen"
    );
    app.screenshot("live-asleep").await.unwrap();

    record_phases(&app).await.unwrap();
    record_three_places(&app, "Design laptop").await.unwrap();
    wake.click().await.unwrap();
    until(
        Duration::from_secs(10),
        "the screen says it is waking",
        || async { Ok(phase(&view).await? != "asleep") },
    )
    .await
    .expect("waking");
    if phase(&view).await.unwrap() == "waking" {
        app.screenshot("live-waking").await.unwrap();
    }
    // While it wakes, all three say so in the same words.
    let words = app
        .driver
        .execute(
            r#"const q = (id) => { const el = document.querySelector(`[data-testid="${id}"]`);
                 return el ? el.textContent.trim() : ''; };
               const row = document.querySelector('[data-testid="machine-row"][data-computer-state="waking"]');
               return [row ? row.querySelector('[data-testid="machine-status"]').textContent.trim() : '',
                       q('status-chip'), q('live-overlay')];"#,
            vec![],
        )
        .await
        .unwrap();
    let words: Vec<String> = serde_json::from_value(words.json().clone()).unwrap();
    until(
        Duration::from_secs(60),
        "waking, then live again",
        || async {
            let phases = recorded_phases(&app).await?;
            Ok(seen_then(&phases, "waking|", "live|").is_some_and(|(_, later)| later))
        },
    )
    .await
    .expect("woken");
    let phases = recorded_phases(&app).await.unwrap();
    // `words` was read after the first poll that saw the screen no longer asleep: waking then
    // (the wake takes 1.5 s here), unless the machine was already up.
    if !words[2].is_empty() && words[2].contains("Waking") {
        assert_eq!(words[0], "Waking up…", "{words:?}");
        assert_eq!(words[1], "Waking up…", "{words:?}");
    }
    let v = app
        .driver
        .execute("return window.__threePlaces || [];", vec![])
        .await
        .unwrap();
    let places: Vec<String> = serde_json::from_value(v.json().clone()).unwrap();
    assert!(
        places.iter().any(|p| p == "waking,waking,waking"),
        "all three said waking: {places:?}"
    );
    assert_eq!(
        places.last().map(String::as_str),
        Some("online,online,online"),
        "{places:?}"
    );
    for p in &places {
        let states: Vec<&str> = p.split(',').collect();
        assert!(
            states.iter().all(|s| *s == states[0]),
            "row, header and live screen never disagree: {places:?}"
        );
    }
    let (waking, _) = seen_then(&phases, "waking|", "live|").unwrap();
    assert!(waking.contains("Waking the computer"), "{phases:?}");
    let woke_at = phases
        .iter()
        .position(|p| p.starts_with("waking|"))
        .unwrap();
    assert!(
        !phases[woke_at..].iter().any(|p| p.starts_with("asleep|")),
        "not asleep again while it wakes: {phases:?}"
    );
    until(
        Duration::from_secs(30),
        "a picture after waking",
        || async { Ok(picture(&app).await?.is_some_and(|p| p.2 > 16)) },
    )
    .await
    .expect("the desktop again");
    app.screenshot("live-woken").await.unwrap();
    app.quit().await;
    sim.shutdown().await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_snapshot_is_saved_where_the_person_chose_and_a_cancel_saves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("desktop.png");
    let record = tempfile::tempdir().unwrap();
    let shown = record.path().join("shown.txt");
    // The save dialog's answers, in order: cancelled, then this file.
    let app = App::launch_with(AppOptions {
        env: vec![
            (
                "PORTHOLE_E2E_SAVE_PATH".into(),
                format!("\n{}", target.display()),
            ),
            ("PORTHOLE_E2E_SHOWN".into(), shown.display().to_string()),
        ],
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    let view = watch(&app, "Design laptop").await.expect("live");
    let button = view.find(by_testid("live-snapshot")).await.unwrap();

    button.click().await.unwrap();
    until(
        Duration::from_secs(20),
        "the cancelled save is over",
        || async { Ok(view.attr("data-snapshot").await?.as_deref() == Some("cancelled")) },
    )
    .await
    .expect("cancelled");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    let notices = view.find_all(by_testid("live-notice")).await.unwrap();
    assert!(notices.is_empty(), "a cancel says nothing");

    button.click().await.unwrap();
    until(Duration::from_secs(20), "the snapshot is saved", || async {
        Ok(view.attr("data-snapshot").await?.as_deref() == Some("saved"))
    })
    .await
    .expect("saved");
    let notice = text_of(&view.find(by_testid("live-notice")).await.unwrap()).await;
    // Its name, and "Show the file" rather than the folder's path.
    assert!(
        notice.contains("“desktop.png”") && !notice.contains(&dir.path().display().to_string()),
        "it names the file, not its path: {notice}"
    );
    app.screenshot("live-snapshot-saved").await.unwrap();
    view.find(by_testid("live-snapshot-show"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    assert_eq!(
        crate::flows::shown_files(&shown).await,
        vec![target.display().to_string()],
        "the snapshot is the file shown"
    );

    // The file is a PNG of the whole live screen with a picture on it (ImageMagick decodes it:
    // format, size, number of distinct colours).
    let out = Command::new("identify")
        .args(["-format", "%m %w %h %k"])
        .arg(&target)
        .output()
        .expect("identify");
    let described = String::from_utf8_lossy(&out.stdout).into_owned();
    let fields: Vec<&str> = described.split_whitespace().collect();
    assert_eq!(
        fields.get(..3),
        Some(&["PNG", "1280", "800"][..]),
        "{described}"
    );
    let colours: u64 = fields[3].parse().unwrap();
    assert!(colours > 16, "not blank: {described}");
    app.quit().await;
}
