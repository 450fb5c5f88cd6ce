//! The schedule steps other tests share: an hourly schedule, the list, a clock the test moves.

use std::path::Path;

use porthole_e2e::{by_testid, App, AppOptions, Eventually};

use crate::flows::{own_demo, select_machine};

pub(crate) fn move_clock(file: &Path, seconds: i64) {
    std::fs::write(file, seconds.to_string()).expect("the test clock is written");
}
/// Opens the Schedules list from the sidebar.
pub(crate) async fn open_list(app: &App) -> porthole_e2e::Result<()> {
    let wait = Eventually::new(&app.driver);
    wait.element("schedules-open").await?.click().await?;
    wait.element("schedules-list").await?;
    Ok(())
}

pub(crate) async fn close_list(app: &App) -> porthole_e2e::Result<()> {
    app.driver
        .find(by_testid("schedules-close"))
        .await?
        .click()
        .await?;
    Eventually::new(&app.driver).gone("schedules-list").await
}

/// In the open Schedule dialog: every hour, saved; the one-time question about starting at
/// login answered "Not now".
/// Makes `task` an hourly schedule on `machine`, from the composer's Schedule… (the tray and
/// close-to-tray tests start from one).
pub(crate) async fn schedule_hourly(
    app: &App,
    machine: &str,
    task: &str,
) -> porthole_e2e::Result<()> {
    open_schedule_dialog(app, machine, task).await?;
    save_every_hour(app).await
}

/// Types `task` in `machine`'s composer and opens Schedule… beside Send.
pub(crate) async fn open_schedule_dialog(
    app: &App,
    machine: &str,
    task: &str,
) -> porthole_e2e::Result<()> {
    let wait = Eventually::new(&app.driver);
    select_machine(app, machine).await?;
    let composer = wait.element("composer").await?;
    composer.click().await?;
    composer.send_keys(task).await?;
    wait.element("schedule-button").await?.click().await?;
    Ok(())
}

pub(crate) async fn save_every_hour(app: &App) -> porthole_e2e::Result<()> {
    let wait = Eventually::new(&app.driver);
    wait.element("schedule-kind-everyHours")
        .await?
        .click()
        .await?;
    let hours = wait.element("schedule-hours").await?;
    hours.clear().await?;
    hours.send_keys("1").await?;
    wait.text("schedule-summary", |t| t.contains("Every hour"))
        .await?;
    app.driver
        .find(by_testid("schedule-save"))
        .await?
        .click()
        .await?;
    wait.element("autostart-no").await?.click().await?;
    wait.gone("schedule-dialog").await
}

/// The app on a Demo of the test's own, with a clock the test moves, and `extra` in its
/// environment.
pub(crate) async fn launch_with_clock(
    extra: &[(&str, &str)],
) -> (porthole_sim::RunningSim, App, TempClock) {
    let (sim, mut env) = own_demo(0.02).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("clock-shift");
    move_clock(&file, 0);
    env.push((
        "PORTHOLE_TEST_CLOCK_FILE".to_owned(),
        file.to_string_lossy().into_owned(),
    ));
    env.extend(
        extra
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned())),
    );
    let app = App::launch_with(AppOptions {
        env,
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    (sim, app, TempClock { _dir: dir, file })
}

/// The clock file and the folder that holds it.
pub(crate) struct TempClock {
    _dir: tempfile::TempDir,
    pub(crate) file: std::path::PathBuf,
}
