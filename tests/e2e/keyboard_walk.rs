//! What every keyboard walk does: press a key, Tab (or Shift+Tab) to a place, and at every
//! place the focus lands check that a person can see it (a focus ring: an outline or a box
//! shadow drawn on the element, the splitter's widened grip, or the ring of the code editor's
//! frame the caret is in).

use porthole_e2e::{App, AppOptions, Eventually};
use thirtyfour::prelude::*;

use crate::flows::demo_env;

/// What has the focus, and whether a person can see where it is.
const FOCUSED: &str = r#"
    const e = document.activeElement;
    if (!e || e === document.body || e === document.documentElement) return null;
    const s = getComputedStyle(e);
    const grip = getComputedStyle(e, '::before');
    const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 1;
    const shadow = s.boxShadow !== 'none';
    const widened = e.getAttribute('role') === 'separator' && parseFloat(grip.width) >= 3;
    // The code editor's ring is on its frame, around the text CodeMirror focuses (a ring on
    // the editor itself would be clipped by the frame's scrolling).
    const frame = e.closest('.cm-editor')?.parentElement;
    const editor = !!frame && getComputedStyle(frame).outlineStyle !== 'none'
        && parseFloat(getComputedStyle(frame).outlineWidth) >= 1;
    const row = e.closest('[data-testid="machine-row"]');
    const named = e.closest('[data-name]');
    const kind = e.closest('[data-kind]');
    const within = e.closest('[data-testid]');
    return {
        testid: e.getAttribute('data-testid') || '',
        what: `${e.tagName.toLowerCase()} ${e.getAttribute('aria-label') || (e.innerText || e.value || '').trim().slice(0, 40)}`,
        row: row ? row.querySelector('[data-testid="machine-name"]')?.innerText ?? '' : '',
        name: named ? named.getAttribute('data-name') : '',
        kind: kind ? kind.getAttribute('data-kind') : '',
        within: within ? within.getAttribute('data-testid') : '',
        visible: outline || shadow || widened || editor,
        keyboard: e.matches(':focus-visible'),
    };
"#;

#[derive(Debug, Default)]
pub struct Focus {
    pub testid: String,
    pub what: String,
    /// The name of the sidebar computer whose row holds the focus.
    pub row: String,
    /// The `data-name` of the nearest element around the focus that has one (a key, a chip).
    pub name: String,
    /// The `data-kind` of the nearest element around the focus that has one (a Needs-you item).
    pub kind: String,
    /// The test id of the element itself or the nearest one around it (the code editor).
    pub within: String,
    pub visible: bool,
    pub keyboard: bool,
}

pub async fn focused(app: &App) -> Option<Focus> {
    let v = app.driver.execute(FOCUSED, vec![]).await.expect("focus");
    let v = v.json();
    let text = |k: &str| {
        v.get(k)
            .and_then(|x| x.as_str())
            .unwrap_or_default()
            .to_owned()
    };
    let flag = |k: &str| v.get(k).and_then(|x| x.as_bool()).unwrap_or(false);
    v.is_object().then(|| Focus {
        testid: text("testid"),
        what: text("what"),
        row: text("row"),
        name: text("name"),
        kind: text("kind"),
        within: text("within"),
        visible: flag("visible"),
        keyboard: flag("keyboard"),
    })
}

pub async fn press(app: &App, key: Key) {
    app.driver
        .action_chain()
        .send_keys(key)
        .perform()
        .await
        .expect("a key is pressed");
}

/// A key pressed while a modifier (Shift, Control) is held.
pub async fn chord(app: &App, modifier: Key, key: impl Into<TypingData>) {
    app.driver
        .action_chain()
        .key_down(modifier.clone())
        .send_keys(key)
        .key_up(modifier)
        .perform()
        .await
        .expect("a key chord is pressed");
}

pub async fn shift_tab(app: &App) {
    chord(app, Key::Shift, Key::Tab).await;
}

pub async fn type_text(app: &App, text: &str) {
    app.driver
        .action_chain()
        .send_keys(text)
        .perform()
        .await
        .expect("typing");
}

/// Replaces what the focused field holds with `text`, as a person does: Ctrl+A, then typing.
pub async fn retype(app: &App, text: &str) {
    chord(app, Key::Control, "a").await;
    type_text(app, text).await;
}

/// Presses Tab (or Shift+Tab) until the focus is where `wanted` says, checking that every
/// place it passes shows where the focus is. Gives up after 80 presses.
pub async fn tab_to(app: &App, back: bool, what: &str, wanted: impl Fn(&Focus) -> bool) -> Focus {
    let mut passed = Vec::new();
    for _ in 0..80 {
        if back {
            shift_tab(app).await;
        } else {
            press(app, Key::Tab).await;
        }
        let Some(now) = focused(app).await else {
            continue;
        };
        assert!(
            now.visible,
            "the focus is not visible on {:?} ({}), reached by {}: no outline, shadow or grip",
            now.testid,
            now.what,
            if back { "Shift+Tab" } else { "Tab" }
        );
        if wanted(&now) {
            return now;
        }
        passed.push(format!("{} ({})", now.testid, now.what));
    }
    panic!("{what} was never reached with the keyboard; passed: {passed:#?}");
}

/// Tab (or Shift+Tab) to the element with this test id.
pub async fn tab_to_id(app: &App, back: bool, testid: &str) -> Focus {
    tab_to(app, back, testid, |f| f.testid == testid).await
}

/// Whether the focus is inside the element with this test id.
pub async fn focus_inside(app: &App, testid: &str) -> bool {
    app.driver
        .execute(
            "return !!document.activeElement.closest(`[data-testid=\"${arguments[0]}\"]`);",
            vec![serde_json::Value::from(testid)],
        )
        .await
        .expect("where the focus is")
        .json()
        .as_bool()
        .unwrap_or(false)
}

/// The focus, which must be somewhere a person can see (not fallen back to the page).
pub async fn focus_here(app: &App, after: &str) -> Focus {
    let now = focused(app)
        .await
        .unwrap_or_else(|| panic!("after {after}, the focus fell back to the page"));
    assert!(
        now.visible,
        "after {after}, the focus is not visible: {now:?}"
    );
    now
}

/// Chooses the computer `name` in the sidebar with Tab and Enter, and waits until the task
/// column is that computer's.
pub async fn choose_computer(app: &App, wait: &Eventually<'_>, name: &str) {
    tab_to(app, false, &format!("{name} in the sidebar"), |f| {
        f.testid == "machine-select" && f.row == name
    })
    .await;
    press(app, Key::Enter).await;
    wait.text("task-machine-name", |t| t == name)
        .await
        .expect("Enter chose the computer");
}

/// The app opened with `options` (on the Demo, unless their environment names a service), its
/// computers listed, and `computer` chosen with Tab and Enter: where most walks begin.
pub async fn open_on(options: AppOptions, computer: &str) -> App {
    let app = App::launch_with(options).await.expect("the app opens");
    let wait = Eventually::new(&app.driver);
    wait.at_least("machine-row", 3).await.expect("computers");
    choose_computer(&app, &wait, computer).await;
    app
}

/// Sends `task` from the message box, reached with Tab, with Enter, and waits until it ends:
/// how it ended (`succeeded`, `failed` or `stopped`).
pub async fn run_task(app: &App, task: &str) -> String {
    tab_to_id(app, false, "composer").await;
    type_text(app, task).await;
    press(app, Key::Enter).await;
    crate::flows::wait_for_status(app, &["succeeded", "failed", "stopped"])
        .await
        .expect("the task ends")
}

/// The answer of the task that ends next (or has just ended), which must succeed: the
/// thread's last answer.
pub async fn last_answer(app: &App) -> String {
    let status = crate::flows::wait_for_status(app, &["succeeded", "failed"])
        .await
        .expect("the task ends");
    assert_eq!(status, "succeeded", "the task succeeded");
    let answers = crate::flows::thread_texts(app, "answer")
        .await
        .expect("the thread's answers");
    answers.last().cloned().unwrap_or_default()
}

/// The `data-<key>` value (camelCase `key`) of the first element with this test id: a live
/// screen's `phase`, a chip's `state`; empty when there is none.
pub async fn data_of(app: &App, testid: &str, key: &str) -> String {
    app.driver
        .execute(
            "return document.querySelector(`[data-testid=\"${arguments[0]}\"]`)?.dataset[arguments[1]] ?? '';",
            vec![serde_json::Value::from(testid), serde_json::Value::from(key)],
        )
        .await
        .expect("the element's data")
        .json()
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// The id of the computer `name` of the simulator's account `account`.
pub fn machine_of(sim: &porthole_sim::RunningSim, account: &str, name: &str) -> String {
    let owner = sim.account(account).user_id.clone();
    sim.state()
        .db()
        .machines
        .iter()
        .find(|m| m.owner == owner && m.name.as_deref() == Some(name))
        .map(|m| m.id.clone())
        .unwrap_or_else(|| panic!("{account} has no computer {name:?}"))
}

/// A simulator of the walk's own, its time twenty times faster than documented.
pub async fn simulator() -> porthole_sim::RunningSim {
    porthole_sim::Sim::start(porthole_sim::Config {
        time_scale: 0.05,
        ..porthole_sim::Config::default()
    })
    .await
    .expect("simulator")
}

/// The app's options for the account Ada of `sim`, reached at `url` (the simulator, or a line
/// to it the test can cut), with `extra` environment.
pub fn as_ada(
    sim: &porthole_sim::RunningSim,
    url: &str,
    extra: Vec<(String, String)>,
) -> AppOptions {
    let ada = sim.account("ada");
    let mut env = demo_env(
        url,
        ada.api_key.as_deref().unwrap_or_default(),
        &ada.id_token,
    );
    env.extend(extra);
    AppOptions {
        env,
        ..AppOptions::default()
    }
}

/// Presses Enter on the focused button `testid`, whose work takes a while (Check, Make
/// reusable, Run, Fix it), and checks that while it is busy (aria-disabled) the focus stays on
/// it instead of falling back to the page: looked at when it turns busy and a moment later,
/// however short the work.
pub async fn press_busy(app: &App, testid: &str) {
    const WATCH: &str = r#"
        const b = document.querySelector(`[data-testid="${arguments[0]}"]`);
        const seen = (window.__busySeen = []);
        const look = () => seen.push({
            busy: b.getAttribute('aria-disabled') === 'true',
            on: document.activeElement === b,
        });
        new MutationObserver(() => { look(); setTimeout(look, 50); })
            .observe(b, { attributes: true, attributeFilter: ['aria-disabled', 'disabled'] });
    "#;
    app.driver
        .execute(WATCH, vec![serde_json::Value::from(testid)])
        .await
        .expect("the button is watched");
    press(app, Key::Enter).await;
    for _ in 0..600 {
        let seen = app
            .driver
            .execute("return window.__busySeen;", vec![])
            .await
            .expect("what was seen")
            .json()
            .clone();
        let seen = seen.as_array().cloned().unwrap_or_default();
        let busy: Vec<_> = seen.iter().filter(|s| s["busy"] == true).collect();
        if busy.len() >= 2 || (!busy.is_empty() && seen.iter().any(|s| s["busy"] == false)) {
            assert!(
                busy.iter().all(|s| s["on"] == true),
                "while {testid} worked, the focus left it: {seen:?}"
            );
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("{testid} never showed that it was busy");
}
