//! What a person does again and again in these tests: pick a machine, send a task, read the
//! task's status.

use porthole_e2e::{by_testid, text_of, App, Eventually, Result};
use thirtyfour::prelude::*;

/// Opens the app with `env` (a Demo of the test's own: [`own_demo_with`]) on the task panel of
/// the machine named `computer`.
pub async fn open_on(env: Vec<(String, String)>, computer: &str) -> App {
    let app = App::launch_with(porthole_e2e::AppOptions {
        env,
        ..porthole_e2e::AppOptions::default()
    })
    .await
    .expect("the app opens");
    select_machine(&app, computer).await.expect("machine");
    app
}

/// Opens the task panel of the machine with this name.
pub async fn select_machine(app: &App, name: &str) -> Result<()> {
    // The sidebar may fold itself between reading its rows and clicking one (a task the app
    // resumed at start is seen running): the rows are read again, as a person looks again.
    let mut tries = 0;
    loop {
        match select_machine_once(app, name).await {
            Ok(()) => return Ok(()),
            Err(err) if tries < 5 && is_stale(err.as_ref()) => tries += 1,
            Err(err) => return Err(err),
        }
    }
}

/// Whether WebDriver said the element read is no longer on the page (thirtyfour wraps the kind
/// in a type whose variants are not public, so its debug text is what says it).
fn is_stale(err: &(dyn std::error::Error + Send + Sync + 'static)) -> bool {
    format!("{err:?}").contains("StaleElementReference")
}

async fn select_machine_once(app: &App, name: &str) -> Result<()> {
    let wait = Eventually::new(&app.driver);
    // With the sidebar folded to its rail (the app's own window as first seen), a person picks
    // the computer on the rail, one click; one not on the rail is looked for in the sidebar (»).
    // Either list may still be on its way.
    let start = std::time::Instant::now();
    let rail = loop {
        if !app
            .driver
            .find_all(by_testid("machine-row"))
            .await?
            .is_empty()
        {
            break Vec::new();
        }
        let rail = app.driver.find_all(by_testid("rail-machine")).await?;
        if !rail.is_empty() || start.elapsed() > std::time::Duration::from_secs(60) {
            break rail;
        }
        tokio::time::sleep(std::time::Duration::from_millis(150)).await;
    };
    if !rail.is_empty() {
        for pick in rail {
            if pick.attr("data-name").await?.as_deref() == Some(name) {
                pick.click().await?;
                wait.text("task-machine-name", |t| t == name).await?;
                return Ok(());
            }
        }
        wait.element("sidebar-unfold").await?.click().await?;
    }
    let rows = wait.at_least("machine-row", 1).await?;
    for row in rows {
        let shown = text_of(&row.find(by_testid("machine-name")).await?).await;
        if shown == name {
            row.find(by_testid("machine-select")).await?.click().await?;
            wait.text("task-machine-name", |t| t == name).await?;
            return Ok(());
        }
    }
    Err(format!("no machine called {name:?} in the sidebar").into())
}

/// Types a task into the composer and sends it with Enter, as a person would.
pub async fn send_task(app: &App, text: &str) -> Result<()> {
    let composer = Eventually::new(&app.driver).element("composer").await?;
    composer.click().await?;
    composer.send_keys(text).await?;
    composer.send_keys(Key::Enter).await?;
    Ok(())
}

/// The task's status as the status chip says it (`running`, `needsApproval`, `succeeded`, …).
pub async fn wait_for_status(app: &App, wanted: &[&str]) -> Result<String> {
    let wait = Eventually::new(&app.driver);
    let start = std::time::Instant::now();
    loop {
        let chip = wait.element("status-chip").await?;
        let status = chip.attr("data-status").await?.unwrap_or_default();
        if wanted.contains(&status.as_str()) {
            return Ok(status);
        }
        if start.elapsed() > std::time::Duration::from_secs(90) {
            return Err(format!("the task stayed {status:?}, expected one of {wanted:?}").into());
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}

/// The texts of the thread's items of one kind (`narration`, `progress`, `answer`, …).
pub async fn thread_texts(app: &App, kind: &str) -> Result<Vec<String>> {
    let mut out = Vec::new();
    for item in app
        .driver
        .find_all(By::Css(format!(
            "[data-testid=\"thread-item\"][data-kind=\"{kind}\"]"
        )))
        .await?
    {
        out.push(text_of(&item).await);
    }
    Ok(out)
}

/// The words of the thread's lines of `kind`, folded or not (a folded line has no innerText).
pub async fn thread_words(app: &App, kind: &str) -> Vec<String> {
    let script = format!(
        "return Array.from(document.querySelectorAll(\
         '[data-testid=\"thread-item\"][data-kind=\"{kind}\"]'))\
         .map((e) => e.textContent.trim());"
    );
    let lines = app.driver.execute(&script, vec![]).await.unwrap();
    serde_json::from_value(lines.json().clone()).unwrap_or_default()
}

/// Records `task` on Design laptop, saves it with the suggested template, waits for learn to
/// save it, and opens it with "Open it" (the saved tasks, on that computer, with it selected).
pub async fn learn_reusable_task(app: &App, task: &str) -> Result<()> {
    crate::replay::run_recorded_task(app, task).await?;
    let wait = Eventually::new(&app.driver);
    wait.element("answer-reusable").await?.click().await?;
    wait.element("reusable-learn").await?;
    app.driver
        .find(by_testid("reusable-learn"))
        .await?
        .click()
        .await?;
    // Learning takes two of the service's minutes.
    let long = Eventually::new(&app.driver).within(std::time::Duration::from_secs(120));
    long.element("reusable-saved").await?;
    wait.element("reusable-open").await?.click().await?;
    wait.at_least("library-item", 1).await?;
    Ok(())
}

/// Fills the selected reusable task's inputs (by parameter name) and presses Run.
pub async fn run_reusable_with(app: &App, inputs: &[(&str, &str)]) -> Result<()> {
    let wait = Eventually::new(&app.driver);
    let form = wait.element("reusable-run-form").await?;
    // The form fits the sheet it is in (the narrow column beside the live screen): nothing of
    // it is cut off at the column's edge, where a person could neither read nor reach it.
    let overflow = app
        .driver
        .execute(
            "const form = arguments[0].getBoundingClientRect();
             const sheet = arguments[0].closest('[data-testid=\"sheet\"]').getBoundingClientRect();
             return form.left >= sheet.left && form.right <= sheet.right + 0.5
               ? '' : `form ${form.left}..${form.right}, sheet ${sheet.left}..${sheet.right}`;",
            vec![form.to_json()?],
        )
        .await?;
    let overflow = overflow.json().as_str().unwrap_or("no answer").to_owned();
    if !overflow.is_empty() {
        return Err(format!("the run form is wider than its sheet: {overflow}").into());
    }
    for (name, value) in inputs {
        let input = app
            .driver
            .find(By::Css(format!(
                "[data-testid=\"reusable-input\"][data-name=\"{name}\"]"
            )))
            .await?;
        input.clear().await?;
        input.send_keys(*value).await?;
    }
    app.driver
        .find(by_testid("reusable-run"))
        .await?
        .click()
        .await?;
    Ok(())
}

/// Whether any file under `dir` contains `needle`: a secret must be in none of the app's files.
pub fn files_mention(dir: &std::path::Path, needle: &str) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    entries.flatten().any(|e| {
        let path = e.path();
        if path.is_dir() {
            files_mention(&path, needle)
        } else {
            std::fs::read(&path)
                .map(|bytes| bytes.windows(needle.len()).any(|w| w == needle.as_bytes()))
                .unwrap_or(false)
        }
    })
}

/// Opens the console of the selected computer as a developer does: developer tools turned
/// on in Settings (once: the setting is kept), then the computer's menu (⋯) → Console.
pub async fn open_console(app: &App) -> Result<()> {
    let wait = Eventually::new(&app.driver);
    if app
        .driver
        .find(by_testid("computer-menu-items"))
        .await
        .is_err()
    {
        wait.element("computer-menu").await?.click().await?;
        wait.element("computer-menu-items").await?;
    }
    if app.driver.find(by_testid("menu-console")).await.is_err() {
        // Developer tools are off: Settings… in the same menu turns them on.
        wait.element("menu-settings").await?.click().await?;
        let setting = wait.element("setting-developer-tools").await?;
        if !setting.is_selected().await? {
            setting.click().await?;
        }
        wait.element("settings-dialog-close").await?.click().await?;
        wait.element("computer-menu").await?.click().await?;
    }
    wait.element("menu-console").await?.click().await?;
    wait.element("console").await?;
    Ok(())
}

/// Opens the console (and a lease if none is open), replaces the editor's block with
/// `code` as a person types it, runs it, and returns the result as the window shows it.
pub async fn run_in_console(app: &App, code: &str) -> Result<String> {
    let wait = Eventually::new(&app.driver);
    open_console(app).await?;
    // The tab shows the editor when a lease is open (a reusable run leaves one), else Open.
    wait.element("console").await?;
    let start = std::time::Instant::now();
    while app.driver.find(by_testid("console-editor")).await.is_err() {
        if let Ok(open) = app.driver.find(by_testid("console-open")).await {
            if porthole_e2e::visible(&app.driver, &open).await && open.is_enabled().await? {
                open.click().await?;
                break;
            }
        }
        if start.elapsed() > std::time::Duration::from_secs(60) {
            return Err("the console showed neither its editor nor Open".into());
        }
        tokio::time::sleep(std::time::Duration::from_millis(150)).await;
    }
    let long = Eventually::new(&app.driver).within(std::time::Duration::from_secs(120));
    // The editor may be drawn again while the lease's state arrives: type again if so.
    let mut attempts = 0;
    loop {
        let typed = async {
            let editor = long.element("console-editor").await?;
            let content = editor.find(By::Css(".cm-content")).await?;
            content.click().await?;
            content.send_keys(Key::Control + "a").await?;
            content.send_keys(Key::Backspace).await?;
            content.send_keys(code).await?;
            Result::<()>::Ok(())
        };
        match typed.await {
            Ok(()) => break,
            Err(_) if attempts < 3 => attempts += 1,
            Err(e) => return Err(e),
        }
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    }
    app.driver
        .find(by_testid("console-run"))
        .await?
        .click()
        .await?;
    let output = long.element("run-output").await?;
    if let Ok(error) = output.find(by_testid("run-error")).await {
        return Err(format!("the block stopped: {}", text_of(&error).await).into());
    }
    Ok(text_of(&output.find(by_testid("run-result")).await?).await)
}

/// A simulator of the test's own, and the app environment that makes it the Demo (signed in as
/// ada): for tests that read what the service received, change its state, or restart the app
/// over the same service.
pub async fn own_demo(time_scale: f64) -> (porthole_sim::RunningSim, Vec<(String, String)>) {
    own_demo_with(porthole_sim::Config {
        time_scale,
        ..porthole_sim::Config::default()
    })
    .await
}

/// [`own_demo`] with a simulator configured by the test (faults, their seed, where turn ids
/// appear).
pub async fn own_demo_with(
    config: porthole_sim::Config,
) -> (porthole_sim::RunningSim, Vec<(String, String)>) {
    let sim = porthole_sim::Sim::start(config).await.expect("simulator");
    let ada = sim.account("ada");
    let env = demo_env(
        &sim.base_url,
        ada.api_key.as_deref().unwrap_or_default(),
        &ada.id_token,
    );
    (sim, env)
}

/// The app environment that makes the simulator at `base_url` the Demo, signed in with these
/// credentials.
/// The app in the `scheme` colour scheme ("light" or "dark"): Porthole's own choice, and GTK's
/// theme, from which WebKitGTK takes the page's `prefers-color-scheme`.
pub fn scheme_env(scheme: &str) -> Vec<(String, String)> {
    let gtk = if scheme == "dark" {
        "Adwaita:dark"
    } else {
        "Adwaita"
    };
    vec![
        ("PORTHOLE_THEME".into(), scheme.into()),
        ("GTK_THEME".into(), gtk.into()),
    ]
}

pub fn demo_env(base_url: &str, api_key: &str, id_token: &str) -> Vec<(String, String)> {
    vec![
        ("PORTHOLE_DEMO_URL".to_owned(), base_url.to_owned()),
        ("PORTHOLE_DEMO_KEY".to_owned(), api_key.to_owned()),
        ("PORTHOLE_DEMO_ID_TOKEN".to_owned(), id_token.to_owned()),
    ]
}

/// Quits `app` and opens it again over the same data folder and environment, with `machine`
/// selected: what a person sees after restarting Porthole. The guard keeps the folder.
pub async fn restart_on(
    app: App,
    env: Vec<(String, String)>,
    machine: &str,
) -> (Option<tempfile::TempDir>, App) {
    let data_dir = app.data_dir().to_path_buf();
    let keep = app.quit().await;
    let again = App::launch_with(porthole_e2e::AppOptions {
        data_dir: Some(data_dir),
        env,
        ..porthole_e2e::AppOptions::default()
    })
    .await
    .expect("the app opens again");
    select_machine(&again, machine).await.expect("machine");
    (keep, again)
}

/// Unfolds the account dialog's "Use an API key instead / Advanced". The sign-in form unfolds
/// it by itself once Rust answers that Google sign-in cannot work here (a build without it, or
/// an address that is not the service), so a click is made only after that answer and only
/// when it is still folded: a click just before the answer is kept, one just after folds it
/// back, and which comes first depends on the machine's load.
pub async fn unfold_advanced(app: &App) -> Result<()> {
    sign_in_answered(app).await;
    let advanced = Eventually::new(&app.driver)
        .element("account-advanced")
        .await?;
    if advanced.attr("open").await?.is_none() {
        Eventually::new(&app.driver)
            .element("account-advanced-toggle")
            .await?
            .click()
            .await?;
    }
    Eventually::new(&app.driver)
        .element("connect-api-key")
        .await?;
    Ok(())
}

/// Waits until the sign-in form has Rust's answer whether Google sign-in can work here: a hint
/// where the Google button would be, or the button itself (see [`unfold_advanced`]).
pub async fn sign_in_answered(app: &App) {
    let start = std::time::Instant::now();
    while start.elapsed() < std::time::Duration::from_secs(30) {
        for id in ["signin-not-configured", "signin-not-here", "signin-browser"] {
            if app.driver.find(by_testid(id)).await.is_ok() {
                return;
            }
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// What "Show the file" showed: the app, told `PORTHOLE_E2E_SHOWN=record`, writes each path it
/// would show in the file manager there, one a line (the file manager is not part of the page).
pub async fn shown_files(record: &std::path::Path) -> Vec<String> {
    let start = std::time::Instant::now();
    loop {
        let lines: Vec<String> = std::fs::read_to_string(record)
            .unwrap_or_default()
            .lines()
            .map(str::to_owned)
            .collect();
        if !lines.is_empty() || start.elapsed() > std::time::Duration::from_secs(20) {
            return lines;
        }
        tokio::time::sleep(std::time::Duration::from_millis(150)).await;
    }
}
