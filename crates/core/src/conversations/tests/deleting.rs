//! Deleting a conversation: its journal, its search lines and its films go; what it cost stays
//! counted without its words; the current one is replaced by a fresh session, so a catch-up
//! cannot bring its lines back; a running task is never deleted under the person.

use super::*;
use crate::error::AppError;
use crate::film::Shelf;
use crate::search::SearchIndex;

/// A film folder of `conversation` with one picture, as the recorder leaves it.
fn film_of(shelf: &Shelf, conversation: &str) -> std::path::PathBuf {
    let dir = shelf.root().join(conversation).join("1700000000000");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("0.jpg"), [1, 2, 3]).unwrap();
    std::fs::write(
        dir.join("index.jsonl"),
        "{\"atMs\":0,\"file\":\"0.jpg\",\"bytes\":3,\"step\":null,\"title\":null,\"narration\":null}\n",
    )
    .unwrap();
    assert_eq!(shelf.films_of(conversation).len(), 1);
    dir
}

#[tokio::test]
async fn a_deleted_conversation_leaves_the_store_the_index_and_its_films() {
    let app = app().await;
    let saved = app.core.store().read(|b| b.conversations.clone());
    let index = Arc::new(SearchIndex::open_in(app.dir.path(), &saved).unwrap());
    app.core.index_into(index.clone(), &saved);
    let shelf = Shelf::in_data_dir(app.dir.path());

    let first = app.core.current(&app.machine).await.unwrap().id;
    app.send(&first, "Find the weather in Lisbon")
        .await
        .unwrap();
    let done = app.until(&first, ended).await;
    let film = film_of(&shelf, &first);
    let spent_before = app.core.usage().all(|_, _| false);
    assert!(!app.core.usage().tasks(&done).is_empty());
    let second = app.core.start_new(&app.machine).await.unwrap().id;
    film_of(&shelf, &second);

    // A finished one: gone from the list, the book, the disk, the index and the films.
    let shown = app.core.delete(&first, &shelf).await.unwrap();
    assert_eq!(
        shown.id, second,
        "its computer's current conversation is shown"
    );
    let rows = app.core.list(&app.machine).await.unwrap();
    assert_eq!(
        rows.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(),
        [second.as_str()]
    );
    assert!(matches!(
        app.core.store().get(&first),
        Err(AppError::UnknownConversation)
    ));
    app.core.store().flush();
    let reread = ConversationStore::open_in(app.dir.path()).unwrap();
    assert!(reread.get(&first).is_err(), "its journal is gone from disk");
    assert!(reread.get(&second).is_ok(), "the other stays");
    let journals: Vec<String> = std::fs::read_dir(app.dir.path().join("conversations"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        journals.iter().all(|name| !name.contains(first.as_str())),
        "{journals:?}"
    );
    assert_eq!(index.search(SCOPE, "lisbon").unwrap(), vec![]);
    assert!(!film.exists() && !shelf.root().join(&first).exists());
    assert!(shelf.films_of(&first).is_empty());
    assert_eq!(shelf.films_of(&second).len(), 1, "another's film stays");
    // What it cost stays counted in the month's spending, without the words of its task.
    let spent_after = app.core.usage().all(|_, _| false);
    assert_eq!(spent_after.len(), spent_before.len());
    assert!(spent_after.iter().all(|row| row.task.is_empty()));
    assert_eq!(
        spent_after
            .iter()
            .map(|r| r.usage.clone())
            .collect::<Vec<_>>(),
        spent_before
            .iter()
            .map(|r| r.usage.clone())
            .collect::<Vec<_>>()
    );

    // The current one: a fresh session replaces it, so a catch-up brings nothing back.
    app.send(&second, "Find the price of a ticket to Bergen")
        .await
        .unwrap();
    app.until(&second, ended).await;
    let third = app.core.delete(&second, &shelf).await.unwrap();
    assert_ne!(third.id, second);
    assert!(third.items.is_empty());
    assert!(app.core.is_current(&third.id));
    assert!(!shelf.root().join(&second).exists());
    assert_eq!(app.core.catch_up(&third.id).await.unwrap(), 0);
    app.core.store().flush();
    assert_eq!(index.search(SCOPE, "bergen").unwrap(), vec![]);
    // Deleting the empty current conversation deletes nothing.
    assert_eq!(
        app.core.delete(&third.id, &shelf).await.unwrap().id,
        third.id
    );

    // A task running there: refused, and the conversation stays whole.
    app.send(&third.id, "Take your time and count to 3")
        .await
        .unwrap();
    app.until(&third.id, |c| c.status.is_active()).await;
    let refused = app.core.delete(&third.id, &shelf).await;
    assert!(
        matches!(refused, Err(AppError::TaskRunningHere)),
        "{refused:?}"
    );
    assert!(app.core.store().get(&third.id).is_ok());
}
