//! axe-core (ui's devDependency, its axe.min.js run in the real window over WebDriver) over
//! every main screen and dialog, in the light and the dark colour scheme: the computer list, a
//! running task beside its live screen, the finished answer and its steps, check and
//! save-as-reusable sheets, an approval card, Needs you, the account with its keys and its
//! advanced part, a new computer, settings, the console, schedules and a schedule, and search.
//! No serious or critical finding may remain; each is reported by rule, element and screen.
//!
//! The same launch keeps every main screen of the window to be looked at, as
//! `screen-<scheme>-NN-<name>.png` (once a test of its own, screens.rs; one walk per scheme
//! now, not two): the computer list, a running task beside its live screen, a finished answer
//! with what can be done with it (its steps, checking it, saving it as a reusable task), the
//! usage, an approval, the account dialog and its advanced part, a new computer, settings with
//! developer tools, the console, and the folded sidebar. The window runs in the scheme the
//! system asks for: GTK's theme (its dark variant) on Linux, with `PORTHOLE_THEME` for the
//! window itself; the test checks the page really sees it.
//!
//! While the task runs, the live screen's text alternative (a polite live region with the
//! agent's latest narration line) is read and compared with the thread's narration.

use std::time::Duration;

use porthole_e2e::{by_testid, text_of, App, AppOptions, Eventually};
use thirtyfour::prelude::*;

use crate::flows::{open_console, send_task, wait_for_status};
use crate::replay::{keep_screenshot, run_recorded_task_started};

/// Slow enough to catch a task while it runs, fast enough for a test.
const SCALE: f64 = 0.4;

const AXE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../ui/node_modules/axe-core/axe.min.js"
);

/// Runs axe over the whole page and returns its serious and critical findings, one line each.
const RUN_AXE: &str = r#"
    const done = arguments[arguments.length - 1];
    window.axe.run(document, { resultTypes: ['violations'] }).then((r) => done(
        r.violations
            .filter((v) => v.impact === 'serious' || v.impact === 'critical')
            .flatMap((v) => v.nodes.map((n) =>
                `${v.id} (${v.impact}) at ${JSON.stringify(n.target)}: ${v.help}; ` +
                (n.failureSummary || '').replace(/\s+/g, ' ').slice(0, 300)))
    ), (e) => done([`axe could not run: ${e}`]));
"#;

/// Every finding of the screens checked so far, with the screen's name.
pub(crate) struct Audit<'a> {
    app: &'a App,
    scheme: &'a str,
    findings: Vec<String>,
    screens: usize,
}

impl<'a> Audit<'a> {
    pub(crate) async fn new(app: &'a App, scheme: &'a str) -> Audit<'a> {
        let source = std::fs::read_to_string(AXE)
            .unwrap_or_else(|e| panic!("{AXE} (npm ci in ui/ installs axe-core): {e}"));
        app.driver
            .set_script_timeout(Duration::from_secs(120))
            .await
            .expect("script timeout");
        // A page that never reloads keeps it for every screen of the run.
        app.driver
            .execute(&format!("{source}\nreturn typeof window.axe;"), vec![])
            .await
            .expect("axe-core loads in the window");
        Audit {
            app,
            scheme,
            findings: Vec::new(),
            screens: 0,
        }
    }

    pub(crate) async fn check(&mut self, screen: &str) {
        let found = self
            .app
            .driver
            .execute_async(RUN_AXE, vec![])
            .await
            .unwrap_or_else(|e| panic!("axe runs on {screen}: {e}"));
        let lines: Vec<String> = serde_json::from_value(found.json().clone())
            .unwrap_or_else(|_| panic!("axe's answer on {screen}: {}", found.json()));
        self.screens += 1;
        let name = format!("a11y-{}-{:02}-{screen}", self.scheme, self.screens);
        keep_screenshot(self.app, &name).await;
        self.findings
            .extend(lines.into_iter().map(|l| format!("[{screen}] {l}")));
    }

    /// Every finding in one message, or `None` when there is none.
    pub(crate) fn report(self) -> Option<String> {
        (!self.findings.is_empty()).then(|| {
            format!(
                "{} serious or critical accessibility findings over {} screens ({}):\n{}",
                self.findings.len(),
                self.screens,
                self.scheme,
                self.findings.join("\n")
            )
        })
    }
}

async fn click(wait: &Eventually<'_>, testid: &str) {
    wait.element(testid)
        .await
        .unwrap_or_else(|e| panic!("{testid} is there: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("{testid} can be clicked: {e}"));
}

/// Reads the live region while the task runs: the agent's latest narration line, once the
/// agent has said one. Returns what it read (empty when the task ended first).
async fn narration_announced(app: &App) -> String {
    let start = std::time::Instant::now();
    while start.elapsed() < Duration::from_secs(90) {
        let region = app
            .driver
            .find(by_testid("live-narration"))
            .await
            .expect("the live screen's live region");
        assert_eq!(
            region.attr("aria-live").await.unwrap().as_deref(),
            Some("polite"),
            "announced politely, never interrupting"
        );
        let said = region
            .prop("textContent")
            .await
            .ok()
            .flatten()
            .unwrap_or_default();
        if !said.trim().is_empty() {
            return said.trim().to_owned();
        }
        let chip = app.driver.find(by_testid("status-chip")).await.unwrap();
        if chip.attr("data-status").await.unwrap().as_deref() != Some("running") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    String::new()
}

async fn every_screen(scheme: &str) {
    let app = App::launch_with(AppOptions {
        demo_time_scale: Some(SCALE),
        env: vec![
            ("PORTHOLE_THEME".into(), scheme.into()),
            (
                "GTK_THEME".into(),
                if scheme == "dark" {
                    "Adwaita:dark"
                } else {
                    "Adwaita"
                }
                .into(),
            ),
        ],
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    let wait = Eventually::new(&app.driver);
    let long = Eventually::new(&app.driver).within(Duration::from_secs(180));
    let mut audit = Audit::new(&app, scheme).await;
    // The walk of screens.rs, its screenshots kept as `screen-<scheme>-NN-<name>.png`, shares
    // this launch: the same screens, walked once.
    let shot = |name: &str| format!("screen-{scheme}-{name}");

    let dark = app
        .driver
        .execute(
            "return matchMedia('(prefers-color-scheme: dark)').matches;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        dark.json().as_bool(),
        Some(scheme == "dark"),
        "the page sees the {scheme} colour scheme"
    );

    // The computer list, then a computer with its live screen beside the empty conversation.
    wait.at_least("machine-row", 3).await.expect("computers");
    audit.check("computer-list").await;
    crate::flows::select_machine(&app, "Design laptop")
        .await
        .unwrap();
    wait.element("live-view-only")
        .await
        .expect("the live screen says it is view only");
    keep_screenshot(&app, &shot("01-computers")).await;
    audit.check("computer").await;

    // A running task, and its live screen said in words.
    run_recorded_task_started(&app, "Look up the weather in Paris")
        .await
        .expect("a recorded task starts");
    let status = wait_for_status(&app, &["running", "succeeded"])
        .await
        .unwrap();
    if status == "running" {
        keep_screenshot(&app, &shot("02-running")).await;
        let said = narration_announced(&app).await;
        assert!(
            !said.is_empty(),
            "while the task runs, the live region says the agent's latest narration line"
        );
        // textContent: the thread folds its steps, and a folded line has no innerText.
        let lines: Vec<String> = serde_json::from_value(
            app.driver
                .execute(
                    "return Array.from(document.querySelectorAll(\
                     '[data-testid=\"thread-item\"][data-kind=\"narration\"]'))\
                     .map((e) => e.textContent.trim());",
                    vec![],
                )
                .await
                .unwrap()
                .json()
                .clone(),
        )
        .unwrap();
        assert!(
            lines.iter().any(|l| l.contains(&said)),
            "the live region says a narration line of the thread: {said:?} not in {lines:?}"
        );
        audit.check("running-task").await;
    }
    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded"
    );
    let region = app.driver.find(by_testid("live-narration")).await.unwrap();
    assert_eq!(
        region
            .prop("textContent")
            .await
            .unwrap()
            .unwrap_or_default(),
        "",
        "nothing more is announced once the task has ended"
    );

    // The answer, its actions, and each of its sheets.
    wait.element("answer-actions").await.expect("the actions");
    keep_screenshot(&app, &shot("03-answer")).await;
    audit.check("answer").await;
    for (open, shown, screen, name) in [
        ("answer-steps", "replay-step", "steps", "04-steps"),
        ("answer-check", "judge-run", "check", "05-check"),
        (
            "answer-reusable",
            "reusable-learn",
            "save-as-reusable",
            "06-save-reusable",
        ),
    ] {
        click(&wait, open).await;
        wait.element(shown).await.expect(screen);
        keep_screenshot(&app, &shot(name)).await;
        audit.check(screen).await;
        click(&wait, "sheet-close").await;
    }

    // Usage.
    click(&wait, "usage-button").await;
    wait.element("usage-panel").await.expect("usage");
    keep_screenshot(&app, &shot("07-usage")).await;
    click(&wait, "usage-button").await;

    // An approval card, and the same card in Needs you.
    send_task(&app, "Delete the old files in Downloads")
        .await
        .unwrap();
    long.element("approval-deny").await.expect("the agent asks");
    let in_thread = wait
        .text("approval-mismatch", |t| {
            t.starts_with("Not the place you named.")
        })
        .await
        .expect("the thread's card warns");
    keep_screenshot(&app, &shot("08-approval")).await;
    audit.check("approval").await;
    click(&wait, "inbox-open").await;
    wait.at_least("inbox-item", 1).await.expect("the card");
    // The same card in Needs you: the same warning, headed by the task that asks.
    let inbox = app.driver.find(by_testid("inbox")).await.unwrap();
    let in_inbox = inbox.find(by_testid("approval-mismatch")).await.unwrap();
    assert_eq!(in_inbox.text().await.unwrap(), in_thread);
    let heads = inbox.find_all(by_testid("inbox-where")).await.unwrap();
    let mut headed = Vec::new();
    for h in heads {
        headed.push(h.text().await.unwrap());
    }
    assert!(
        headed
            .iter()
            .any(|h| h.ends_with("Delete the old files in Downloads")),
        "{headed:?}"
    );
    keep_screenshot(&app, &shot("08-needs-you")).await;
    audit.check("needs-you").await;
    click(&wait, "inbox-close").await;
    click(&wait, "approval-deny").await;
    wait_for_status(&app, &["succeeded", "failed", "stopped"])
        .await
        .unwrap();

    // The account with its keys, and its advanced part.
    click(&wait, "open-keys").await;
    wait.element("keys-page").await.expect("the account dialog");
    wait.at_least("key-row", 1).await.expect("the keys");
    keep_screenshot(&app, &shot("09-account")).await;
    audit.check("account-and-keys").await;
    crate::flows::unfold_advanced(&app)
        .await
        .expect("the API key form");
    keep_screenshot(&app, &shot("10-account-advanced")).await;
    audit.check("account-advanced").await;
    click(&wait, "keys-page-close").await;

    click(&wait, "new-computer").await;
    wait.element("computer-name").await.expect("the form");
    keep_screenshot(&app, &shot("11-new-computer")).await;
    audit.check("new-computer").await;
    click(&wait, "new-computer-dialog-close").await;

    // Settings with developer tools on, then the console from the computer's menu.
    click(&wait, "open-settings").await;
    let setting = wait.element("setting-developer-tools").await.unwrap();
    if !setting.is_selected().await.unwrap() {
        setting.click().await.unwrap();
    }
    keep_screenshot(&app, &shot("12-settings")).await;
    audit.check("settings").await;
    click(&wait, "settings-dialog-close").await;
    open_console(&app).await.expect("the console opens");
    keep_screenshot(&app, &shot("13-console")).await;
    audit.check("console").await;
    click(&wait, "sheet-close").await;

    // The sidebar folded away: the conversation and the live screen take the window.
    click(&wait, "sidebar-fold").await;
    wait.element("sidebar-unfold").await.expect("the rail");
    keep_screenshot(&app, &shot("14-sidebar-folded")).await;
    click(&wait, "sidebar-unfold").await;
    wait.element("machine-list")
        .await
        .expect("the sidebar is back");
    assert!(app.driver.find(by_testid("sidebar-unfold")).await.is_err());

    // A schedule being made, and the list of schedules.
    click(&wait, "schedule-button").await;
    wait.element("schedule-text")
        .await
        .expect("the schedule form");
    audit.check("schedule").await;
    app.driver
        .action_chain()
        .send_keys(Key::Escape)
        .perform()
        .await
        .unwrap();
    wait.gone("schedule-text").await.expect("Escape closes it");
    click(&wait, "schedules-open").await;
    wait.element("schedules-list").await.expect("the list");
    audit.check("schedules").await;
    click(&wait, "schedules-close").await;

    // Search, with results.
    app.driver
        .action_chain()
        .key_down(Key::Control)
        .send_keys("k")
        .key_up(Key::Control)
        .perform()
        .await
        .unwrap();
    let input = wait.element("search-input").await.expect("the search box");
    input.send_keys("weather").await.unwrap();
    let hit = wait.at_least("search-hit", 1).await.expect("results");
    assert!(text_of(&hit[0]).await.to_lowercase().contains("weather"));
    audit.check("search").await;

    let report = audit.report();
    app.quit().await;
    assert!(report.is_none(), "{}", report.unwrap_or_default());
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn every_main_screen_shown_and_no_serious_finding_in_the_light_scheme() {
    every_screen("light").await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn every_main_screen_shown_and_no_serious_finding_in_the_dark_scheme() {
    every_screen("dark").await;
}
