//! The search index follows tasks as they stream: every saved change of a conversation is
//! indexed, so a task's lines are found while it runs and its answer once it ends.

use super::*;
use crate::search::SearchIndex;

#[tokio::test]
async fn a_tasks_lines_are_found_as_they_stream_at_their_place_in_the_thread() {
    let app = app().await;
    let saved = app.core.store().read(|b| b.conversations.clone());
    let index = Arc::new(SearchIndex::open_in(app.dir.path(), &saved).unwrap());
    app.core.index_into(index.clone(), &saved);
    let id = app.new_conversation().await;

    app.send(&id, "Take your time and find the weather in Oslo")
        .await
        .unwrap();
    // While it runs: the task and the agent's first narration are already found.
    app.until(&id, |c| {
        c.status.is_active()
            && c.items
                .iter()
                .any(|i| matches!(i, ThreadItem::Narration { .. }))
    })
    .await;
    app.core.store().flush();
    let running = index.search(SCOPE, "oslo").unwrap();
    assert!(running.iter().any(|h| h.kind == "task"), "{running:?}");
    assert!(running.iter().any(|h| h.kind == "narration"), "{running:?}");
    app.until(&id, ended).await;

    app.send(&id, "Find the price of a ticket to Bergen")
        .await
        .unwrap();
    let done = app.until(&id, |c| ended(c) && answers(c).len() == 2).await;
    // A word of the second answer that the first does not hold (the Demo's words may change).
    let (first, second) = (answers(&done)[0], answers(&done)[1]);
    let word = distinct_word(second, first);
    app.core.store().flush();
    let hits = index.search(SCOPE, &word).unwrap();
    let answer = hits
        .iter()
        .find(|h| h.kind == "answer")
        .unwrap_or_else(|| panic!("the second answer is found by {word:?}: {hits:?}"));
    assert_eq!(answer.conversation_id, id);
    assert_eq!(answer.machine_id, app.machine);
    let line = &done.items[answer.item as usize];
    assert!(
        matches!(line, ThreadItem::Answer { text } if text == second),
        "the hit opens the second answer's line: {line:?}"
    );
    assert!(
        hits.iter().filter(|h| h.kind == "answer").count() == 1,
        "only the second answer: {hits:?}"
    );

    // Rebuilt from the saved conversations, the index finds the same.
    drop(index);
    std::fs::remove_file(app.dir.path().join("search.sqlite3")).unwrap();
    let saved = app.core.store().read(|b| b.conversations.clone());
    let rebuilt = SearchIndex::open_in(app.dir.path(), &saved).unwrap();
    assert_eq!(rebuilt.search(SCOPE, &word).unwrap(), hits);
}

/// The longest word of `text` (letters only) that `other` does not hold, lowercased.
fn distinct_word(text: &str, other: &str) -> String {
    let other = other.to_lowercase();
    let mut words: Vec<String> = text
        .split(|c: char| !c.is_alphabetic())
        .map(str::to_lowercase)
        .filter(|w| w.len() > 3 && !other.contains(w.as_str()))
        .collect();
    words.sort_by_key(|w| std::cmp::Reverse(w.len()));
    words.into_iter().next().expect("the answers differ")
}
