//! The conversations are read after the first screen, on a thread of their own (security
//! review N10): what is asked of them meanwhile waits for them and sees them, and a change made
//! meanwhile lands on them, never on an empty book that would then be saved over them.

use super::*;

#[tokio::test]
async fn what_is_asked_while_the_conversations_load_sees_them_and_a_change_lands_on_them() {
    // A first run leaves a finished task in the data folder.
    let app = app().await;
    let id = app.new_conversation().await;
    app.send(&id, "Find the weather in Lisbon").await.unwrap();
    app.until(&id, ended).await;
    app.core.store().flush();
    let done = app.core.store().get(&id).unwrap();

    // The next start, as the app makes it: the store exists, its files are not read yet.
    let told = Arc::new(Told::default());
    let restarted = Conversations::new(
        app.connection.clone(),
        ConversationStore::loading(),
        crate::conversations::usage::UsageStore::open_in(app.dir.path()).unwrap(),
        told.clone(),
    );
    let machine = app.machine.clone();
    let listing = tokio::spawn({
        let (core, machine) = (restarted.clone(), machine.clone());
        async move { core.list(&machine).await }
    });
    let current = tokio::spawn({
        let (core, machine) = (restarted.clone(), machine.clone());
        async move { core.current(&machine).await }
    });
    let renaming = std::thread::spawn({
        let (core, id) = (restarted.clone(), id.clone());
        move || core.change(&id, |c| c.title = "Weather, renamed meanwhile".into())
    });
    for _ in 0..20 {
        tokio::task::yield_now().await;
    }
    assert!(
        !listing.is_finished() && !current.is_finished() && !renaming.is_finished(),
        "nothing is answered from a book not read yet"
    );

    let loader = restarted.clone();
    let folder = app.dir.path().to_owned();
    tokio::task::spawn_blocking(move || loader.store().load(&folder))
        .await
        .unwrap()
        .unwrap();

    let rows = listing.await.unwrap().unwrap();
    assert_eq!(
        rows.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(),
        [id.as_str()],
        "the list is the saved one"
    );
    assert_eq!(
        current.await.unwrap().unwrap().id,
        id,
        "the computer's current conversation is the saved one, not a new empty one"
    );
    let renamed = renaming.join().unwrap().unwrap();
    assert_eq!(
        renamed.items, done.items,
        "the change landed on the saved thread"
    );

    // What the next start reads: the saved thread with the change, nothing lost.
    restarted.store().flush();
    let reread = ConversationStore::open_in(app.dir.path()).unwrap();
    let book = reread.read(|b| b.conversations.clone());
    assert_eq!(book.len(), 1);
    assert_eq!(book[0].title, "Weather, renamed meanwhile");
    assert_eq!(book[0].items, done.items);
}

#[test]
fn conversations_that_cannot_be_read_refuse_changes_rather_than_save_an_empty_book() {
    // A file where the conversations' folder should be: the load cannot read it.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("conversations"), b"not a folder").unwrap();
    let store = ConversationStore::loading();
    assert!(store.load(dir.path()).is_err());
    assert!(store.read(|b| b.conversations.is_empty()), "readers go on");
    assert!(
        store
            .write(|b| b.create("c1".into(), SCOPE, "m1", 1.0).clone())
            .is_err(),
        "a book that could not be read saves nothing"
    );
    assert_eq!(
        std::fs::read(dir.path().join("conversations")).unwrap(),
        b"not a folder"
    );
}
