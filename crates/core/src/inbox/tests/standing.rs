//! Items that stand until the person acts or puts them away: failed tasks, computers that
//! cannot be woken, a connection that needs signing in; and when the list is published.

use super::*;

#[tokio::test]
async fn a_failed_task_is_an_item_until_put_away_and_a_new_failure_is_news_again() {
    let app = app().await;
    let rows = app.read_machines().await;
    let laptop = app.machine(&rows, "Design laptop");
    let id = app.send(&laptop, "Open the file and fail").await;
    let view = app
        .until(|v| !of_kind(v, InboxKind::TaskFailed).is_empty())
        .await;
    let failed = of_kind(&view, InboxKind::TaskFailed)[0].clone();
    assert_eq!(failed.conversation_id.as_deref(), Some(id.as_str()));
    assert!(failed.error.is_some(), "why, in words");

    // Cards are not put away by a dismissal; a failure is.
    app.inbox.dismiss("card:anything");
    app.inbox.dismiss(&failed.key);
    assert!(of_kind(&app.view(), InboxKind::TaskFailed).is_empty());
    // Put away stays put away after a restart: the same failure is not news again.
    let restarted = Inbox::open_in(app._dir.path());
    let view = restarted.view(&app.core, &app.connection);
    assert!(
        of_kind(&view, InboxKind::TaskFailed).is_empty(),
        "{view:#?}"
    );

    app.send(&laptop, "Try again and fail").await;
    let again = app
        .until(|v| {
            of_kind(v, InboxKind::TaskFailed)
                .first()
                .is_some_and(|i| i.key != failed.key)
        })
        .await;
    assert_eq!(of_kind(&again, InboxKind::TaskFailed).len(), 1);
    let view = restarted.view(&app.core, &app.connection);
    assert_eq!(of_kind(&view, InboxKind::TaskFailed).len(), 1, "{view:#?}");
}

#[tokio::test]
async fn a_computer_that_cannot_be_woken_needs_the_person_once_they_want_it() {
    let app = app().await;
    let rows = app.read_machines().await;
    // A first start asks nothing of the person: the asleep computer's row says it can't be
    // woken from here, and nobody has tried.
    let view = app.view();
    assert!(
        of_kind(&view, InboxKind::CannotWake).is_empty(),
        "{view:#?}"
    );

    // Once it is given a task, it needs the person.
    let archive = app.machine(&rows, "Studio archive");
    app.send(&archive, "Look up the weather in Paris").await;
    let view = app
        .until(|v| !of_kind(v, InboxKind::CannotWake).is_empty())
        .await;
    let asleep = of_kind(&view, InboxKind::CannotWake);
    assert_eq!(asleep[0].machine_name.as_deref(), Some("Studio archive"));
}

#[tokio::test]
async fn a_refused_wake_is_an_item_until_put_away() {
    let app = app().await;
    let rows = app.read_machines().await;

    // Waking it is refused by the service: the refusal's words are the item's.
    let archive = app.machine(&rows, "Studio archive");
    let refused = crate::machines::waking::ask_to_wake(&app.client, &archive)
        .await
        .expect_err("it never wakes");
    app.inbox
        .wake_result(&archive, Some(crate::error::UiError::from(&refused)));
    let view = app.view();
    let items = of_kind(&view, InboxKind::CannotWake);
    assert_eq!(items.len(), 1, "one item per computer");
    assert_eq!(items[0].error, Some(crate::error::UiError::from(&refused)));

    app.inbox.dismiss(&items[0].key);
    assert!(of_kind(&app.view(), InboxKind::CannotWake).is_empty());
    // Kept across a restart, until waking it is tried again.
    let restarted = Inbox::open_in(app._dir.path());
    restarted.machines_read(&rows);
    let view = restarted.view(&app.core, &app.connection);
    assert!(
        of_kind(&view, InboxKind::CannotWake).is_empty(),
        "{view:#?}"
    );
    restarted.wake_result(&archive, Some(crate::error::UiError::from(&refused)));
    let view = &restarted;
    assert_eq!(
        of_kind(
            &view.view(&app.core, &app.connection),
            InboxKind::CannotWake
        )
        .len(),
        1,
        "a new wake tried brings it back"
    );
    // Switching away forgets the computers of the connection left.
    app.inbox.connection_left();
    assert!(app.view().items.is_empty());
}

#[test]
fn a_connection_that_needs_signing_in_comes_first() {
    // The words of a refused sign-in carry the Sign in action.
    let error = crate::error::UiError::from(&crate::error::AppError::SignInNeeded);
    let connection = ConnectionInfo {
        mode: ConnectionMode::Account,
        state: ConnectionState::Failed,
        base_url: None,
        user_id: None,
        has_saved_account: true,
        error: Some(error.clone()),
    };
    let machines = vec![MachineRow {
        machine_id: "m1".into(),
        name: "Old box".into(),
        cloud: true,
        kind_known: true,
        availability: Availability::Asleep,
        can_wake: false,
        free_computer: false,
        updated_at: Some(5.0),
        starting_since: None,
    }];
    let view = derive(&Sources {
        scope: Some("acct"),
        conversations: &[],
        connection: &connection,
        machines: &machines,
        wake_failures: &HashMap::new(),
        dismissed: &HashSet::new(),
    });
    assert_eq!(
        view.count, 1,
        "a computer nobody asked for is not news: {view:#?}"
    );
    assert_eq!(view.items[0].kind, InboxKind::SignIn);
    assert_eq!(view.items[0].error, Some(error));
    // Any other failed connection is the banner's, not a sign-in to ask for.
    let mut other = connection.clone();
    other.error = Some(crate::error::UiError::from(
        &crate::error::AppError::NotConnected,
    ));
    let view = derive(&Sources {
        scope: None,
        conversations: &[],
        connection: &other,
        machines: &machines,
        wake_failures: &HashMap::new(),
        dismissed: &HashSet::new(),
    });
    assert!(view.items.is_empty(), "no scope, no computers: {view:#?}");
}

#[test]
fn the_list_is_published_only_when_it_changed() {
    let dir = tempfile::tempdir().unwrap();
    let connection = Connection::default();
    let core = Conversations::new(
        connection.clone(),
        ConversationStore::open_in(dir.path()).unwrap(),
        UsageStore::open_in(dir.path()).unwrap(),
        Arc::new(Ticks::default()),
    );
    let inbox = Inbox::default();
    assert!(
        inbox.changed(&core, &connection).is_some(),
        "the first is news"
    );
    assert!(inbox.changed(&core, &connection).is_none());
    inbox.wake_result(
        "m1",
        Some(crate::error::UiError::from(
            &crate::error::AppError::CannotWake,
        )),
    );
    assert!(
        inbox.changed(&core, &connection).is_none(),
        "m1 is not a computer read yet"
    );
}

/// A file of what was put away that cannot be read is set aside (and said, like every stored
/// file), and the inbox starts without it: nothing put away, nothing lost but that.
#[test]
fn an_unreadable_put_away_file_is_set_aside_and_said() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("inbox.json"), "{ not json").unwrap();
    let inbox = Inbox::open_in(dir.path());
    let aside = inbox.set_aside().expect("the file was set aside");
    assert!(aside.moved_to.exists(), "moved, untouched");
    let words = crate::words::stored::set_aside(crate::words::stored::Stored::Inbox, aside);
    assert!(words.title.contains("Needs you"), "{}", words.title);
    assert_eq!(words.action, Some(crate::UiAction::ShowFile));
    assert!(!words.detail.contains(&aside.moved_to.display().to_string()));
    assert!(inbox.lock().dismissed.is_empty());
}
