//! A task's spending cap against the simulator, whose agent pays for a model call at the start,
//! at each step and at the end: the cost reported while the task runs reaches a small cap long
//! before the task would end.

use super::*;
use crate::conversations::spending_cap;
use crate::error::AppError;

fn capped(id: &str, text: &str, cap_usd: Option<f64>) -> SendRequest {
    SendRequest {
        conversation_id: id.into(),
        text: text.into(),
        cap_usd,
        ..SendRequest::default()
    }
}

fn cost(c: &Conversation) -> f64 {
    c.usage.as_ref().map_or(0.0, |u| u.total.cost_usd)
}

/// The sentence that says the task stopped at its cap, if any.
fn cap_notice(c: &Conversation) -> Option<String> {
    notices(c)
        .into_iter()
        .find(|n| n.starts_with("Stopped at your"))
}

#[tokio::test]
async fn a_cap_below_the_tasks_cost_stops_it_and_says_what_it_cost() {
    let app = app().await;
    let id = app.new_conversation().await;
    app.core
        .send(capped(
            &id,
            "Find the weather in Lisbon and count to 8",
            Some(0.02),
        ))
        .await
        .unwrap();
    let done = app.until(&id, ended).await;

    assert_eq!(done.status, TaskStatus::Stopped, "{:#?}", done.items);
    assert!(
        answers(&done).is_empty(),
        "stopped before its answer: {:#?}",
        done.items
    );
    let spent = cost(&done);
    assert!(
        spent >= 0.02,
        "stopped only once the cap was reached: {spent}"
    );
    assert_eq!(
        cap_notice(&done),
        Some(format!(
            "Stopped at your $0.02 cap. This task cost ${spent:.2}."
        )),
        "{:#?}",
        done.items
    );
    assert!(!notices(&done).contains(&"You stopped the task.".to_owned()));
    // Stopped on the service, not only in the window: the turn is over there.
    let turn = done
        .follower
        .as_ref()
        .and_then(|f| f.turn_id.clone())
        .unwrap();
    let client = app.connection.active().await.unwrap().client;
    let turn = client
        .turns()
        .wait(&turn, Duration::from_secs(60))
        .await
        .unwrap();
    assert!(
        turn.status.is_final(),
        "the service's turn ended: {:?}",
        turn.status
    );
    assert!(!app.core.is_following(&id), "the follow is over");
    // The task's figures are kept as for any task.
    let kept = app.core.usage().tasks(&done);
    assert_eq!(kept.len(), 1);
    assert!((kept[0].usage.total.cost_usd - spent).abs() < 1e-9);
}

#[tokio::test]
async fn a_cap_above_the_tasks_cost_lets_it_finish() {
    let app = app().await;
    let id = app.new_conversation().await;
    app.core
        .send(capped(&id, "Find the weather in Lisbon", Some(5.0)))
        .await
        .unwrap();
    let done = app.until(&id, ended).await;

    assert_eq!(done.status, TaskStatus::Succeeded, "{:#?}", done.items);
    assert_eq!(answers(&done).len(), 1);
    assert!(cost(&done) > 0.0 && cost(&done) < 5.0);
    assert_eq!(cap_notice(&done), None);
    assert_eq!(done.cap_usd, Some(5.0), "the task's cap is kept with it");
}

#[tokio::test]
async fn without_a_cap_a_task_runs_to_its_end() {
    let app = app().await;
    let id = app.new_conversation().await;
    app.core
        .send(capped(
            &id,
            "Find the weather in Lisbon and count to 8",
            None,
        ))
        .await
        .unwrap();
    let done = app.until(&id, ended).await;

    assert_eq!(done.status, TaskStatus::Succeeded, "{:#?}", done.items);
    assert!(cost(&done) > 0.02, "it cost more than the other test's cap");
    assert_eq!(cap_notice(&done), None);
    assert_eq!(done.cap_usd, None);
}

#[tokio::test]
async fn a_cap_that_is_not_a_sum_of_money_sends_nothing() {
    let app = app().await;
    let id = app.new_conversation().await;
    for bad in [0.0, -1.0, f64::NAN] {
        let sent = app
            .core
            .send(capped(&id, "Find the weather", Some(bad)))
            .await;
        assert!(matches!(sent, Err(AppError::InvalidCap)), "{bad}");
        let held = app
            .core
            .run_next(capped(&id, "Find the weather", Some(bad)))
            .await;
        assert!(matches!(held, Err(AppError::InvalidCap)), "{bad}");
    }
    let c = app.core.store().get(&id).unwrap();
    assert!(c.items.is_empty(), "nothing recorded: {:#?}", c.items);
    assert_eq!(c.status, TaskStatus::Idle);
}

#[tokio::test]
async fn a_restart_keeps_the_running_tasks_cap() {
    let app = app().await;
    let id = app.new_conversation().await;
    app.core
        .send(capped(&id, "Take your time and count to 3", Some(0.03)))
        .await
        .unwrap();
    app.until(&id, |c| c.session_id.is_some() && c.status.is_active())
        .await;
    // The app closes (its followers stop) and starts again over the same data folder.
    app.core.connection_left();
    let told = Arc::new(Told::default());
    // The app ends: what it changed is on disk (`lib.rs` flushes at exit).
    app.core.store().flush();
    let restarted = core_in(app.dir.path(), &app.connection, &told);
    let client = app.connection.active().await.unwrap().client;
    restarted.resume(&client, SCOPE);
    let done = until(&restarted, &told, &id, ended).await;

    assert_eq!(done.status, TaskStatus::Stopped, "{:#?}", done.items);
    assert!(cap_notice(&done).is_some_and(|n| n.starts_with("Stopped at your $0.03 cap.")));
}

#[test]
fn the_default_cap_is_kept_in_the_settings() {
    let dir = tempfile::tempdir().unwrap();
    let settings = crate::persist::SettingsStore::open_in(dir.path()).unwrap();
    assert_eq!(spending_cap::default_cap(&settings), None);
    spending_cap::set_default_cap(&settings, Some(0.5)).unwrap();
    let reopened = crate::persist::SettingsStore::open_in(dir.path()).unwrap();
    assert_eq!(spending_cap::default_cap(&reopened), Some(0.5));
    assert!(matches!(
        spending_cap::set_default_cap(&reopened, Some(-2.0)),
        Err(AppError::InvalidCap)
    ));
    assert_eq!(
        spending_cap::default_cap(&reopened),
        Some(0.5),
        "a bad cap changes nothing"
    );
    spending_cap::set_default_cap(&reopened, None).unwrap();
    assert_eq!(spending_cap::default_cap(&reopened), None);
}

#[test]
fn a_cap_for_every_task_is_offered_once_and_the_answer_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let settings = crate::persist::SettingsStore::open_in(dir.path()).unwrap();
    assert!(
        spending_cap::cap_offer_pending(&settings),
        "offered on first use"
    );
    assert!(matches!(
        spending_cap::answer_cap_offer(&settings, Some(0.0)),
        Err(AppError::InvalidCap)
    ));
    assert!(
        spending_cap::cap_offer_pending(&settings),
        "a bad sum is no answer"
    );
    assert_eq!(
        spending_cap::answer_cap_offer(&settings, Some(1.0)).unwrap(),
        Some(1.0)
    );
    let reopened = crate::persist::SettingsStore::open_in(dir.path()).unwrap();
    assert!(!spending_cap::cap_offer_pending(&reopened), "never again");
    assert_eq!(spending_cap::default_cap(&reopened), Some(1.0));

    // Declined: no cap, and not asked again either; nor asked of one who set a cap already.
    let other = tempfile::tempdir().unwrap();
    let declined = crate::persist::SettingsStore::open_in(other.path()).unwrap();
    assert_eq!(
        spending_cap::answer_cap_offer(&declined, None).unwrap(),
        None
    );
    assert!(!spending_cap::cap_offer_pending(&declined));
    let third = tempfile::tempdir().unwrap();
    let capped = crate::persist::SettingsStore::open_in(third.path()).unwrap();
    spending_cap::set_default_cap(&capped, Some(2.0)).unwrap();
    assert!(!spending_cap::cap_offer_pending(&capped));
}

/// The lines that say the task could not be stopped at its cap.
fn refusals(c: &Conversation) -> usize {
    notices(c)
        .iter()
        .filter(|n| n.contains("but Porthole could not stop it"))
        .count()
}

#[tokio::test]
async fn a_stop_the_service_refuses_keeps_the_cap_is_said_once_and_is_tried_again() {
    use porthole_sim::faults::Fault;
    let app = app().await;
    app.sim.state().faults().set_rate(Fault::Abort500, 1.0);
    let id = app.new_conversation().await;
    app.core
        .send(capped(
            &id,
            "Find the weather in Lisbon and count to 8",
            Some(0.02),
        ))
        .await
        .unwrap();

    // The cap is reached and the service refuses the stop: said, the cap kept, the task on.
    let refused = app.until(&id, |c| refusals(c) > 0 || ended(c)).await;
    assert_eq!(refusals(&refused), 1, "{:#?}", refused.items);
    assert_eq!(refused.cap_usd, Some(0.02), "the cap stays with the task");
    assert!(refused.status.is_active(), "{:?}", refused.status);
    assert!(app.sim.injected(Fault::Abort500) >= 1);

    // The service takes stops again: a later try stops the task at its cap.
    let refused_so_far = app.sim.injected(Fault::Abort500);
    app.sim.state().faults().set_rate(Fault::Abort500, 0.0);
    let done = app.until(&id, ended).await;
    assert_eq!(done.status, TaskStatus::Stopped, "{:#?}", done.items);
    assert!(
        cap_notice(&done).is_some_and(|n| n.starts_with("Stopped at your $0.02 cap.")),
        "{:#?}",
        done.items
    );
    assert_eq!(refusals(&done), 1, "said once, however often it was tried");
    assert!(app.sim.injected(Fault::Abort500) >= refused_so_far);
    assert!(!app.core.is_following(&id), "the follow is over");
}

#[tokio::test]
async fn a_capped_task_whose_follow_broke_is_still_stopped_at_its_cap() {
    let app = app().await;
    let id = app.new_conversation().await;
    app.core
        .send(capped(
            &id,
            "Find the weather in Lisbon and count to 8",
            Some(0.02),
        ))
        .await
        .unwrap();
    // As soon as the task runs on the service, its follow breaks as on an answer Porthole
    // cannot read: the thread reads failed, but the agent works on over there.
    app.until(&id, |c| c.session_id.is_some()).await;
    app.core.shared.followers.stop(&id);
    let broken = app
        .core
        .change(&id, |c| {
            c.record_error(crate::error::Problem::from(&AppError::NoTurnYet), 1.0)
        })
        .unwrap();
    assert!(
        cost(&broken) < 0.02 && broken.status == TaskStatus::Failed,
        "broken before the cap was reached: {:#?}",
        broken.items
    );
    app.core.watch_cap(&id);

    let done = app.until(&id, |c| c.status == TaskStatus::Stopped).await;
    assert!(
        cap_notice(&done).is_some_and(|n| n.starts_with("Stopped at your $0.02 cap.")),
        "{:#?}",
        done.items
    );
    assert!(cost(&done) >= 0.02, "stopped once the cost reached the cap");
    assert_turn_ended(&app, &done).await;
}

/// The task's turn is over on the service, not only in the window.
async fn assert_turn_ended(app: &App, done: &Conversation) {
    let turn = done
        .follower
        .as_ref()
        .and_then(|f| f.turn_id.clone())
        .unwrap();
    let client = app.connection.active().await.unwrap().client;
    let turn = client
        .turns()
        .wait(&turn, Duration::from_secs(60))
        .await
        .unwrap();
    assert!(
        turn.status.is_final(),
        "stopped on the service: {:?}",
        turn.status
    );
}
