//! The service's check the person ran of a task decides its receipt, and is kept with the
//! conversation: a restart (a new store over the same folder) reads the same receipt, a check
//! of an earlier task is not the next task's, and deleting the conversation takes it along.

use super::*;
use crate::film::Shelf;
use crate::receipt::{self, Check, Judged, ReceiptOutcome};

#[tokio::test]
async fn a_checks_result_survives_a_restart_and_goes_with_its_conversation() {
    let app = app().await;
    let id = app.new_conversation().await;
    app.send(&id, "Find the weather in Lisbon").await.unwrap();
    let done = app.until(&id, ended).await;
    let turn = done
        .follower
        .as_ref()
        .and_then(|f| f.turn_id.clone())
        .unwrap();
    let from_answer = receipt::receipts(&done, done.last_check());
    assert_eq!(from_answer[0].judged, Judged::Answer);

    app.core
        .keep_check(&id, &turn, Some(Check { passed: 1, of: 2 }))
        .unwrap();
    let checked = app.core.store().get(&id).unwrap();
    let receipt = receipt::receipts(&checked, checked.last_check()).remove(0);
    assert_eq!(
        (receipt.outcome, receipt.judged),
        (ReceiptOutcome::Partly, Judged::Check)
    );

    // A restart: a new store over the same folder reads the same receipt.
    app.core.store().flush();
    let reread = ConversationStore::open_in(app.dir.path()).unwrap();
    let again = reread.get(&id).unwrap();
    assert_eq!(again.last_check(), Some(Check { passed: 1, of: 2 }));
    assert_eq!(receipt::receipts(&again, again.last_check())[0], receipt);

    // "Could not tell" of another task forgets nothing; of this one, it forgets the check.
    app.core.keep_check(&id, "another-turn", None).unwrap();
    assert!(app.core.store().get(&id).unwrap().last_check().is_some());
    app.core.keep_check(&id, &turn, None).unwrap();
    assert_eq!(app.core.store().get(&id).unwrap().last_check(), None);
    app.core
        .keep_check(&id, &turn, Some(Check { passed: 2, of: 2 }))
        .unwrap();

    // The next task's receipt is not told by the earlier task's check.
    app.send(&id, "Now find the weather in Porto")
        .await
        .unwrap();
    let next = app
        .until(&id, |c| {
            ended(c) && c.follower.as_ref().and_then(|f| f.turn_id.as_ref()) != Some(&turn)
        })
        .await;
    assert_eq!(next.last_check(), None);
    let all = receipt::receipts(&next, next.last_check());
    assert_eq!(all.last().unwrap().judged, Judged::Answer);

    // Deleted with its conversation: nothing of it is read back.
    let other = app.core.start_new(&app.machine).await.unwrap().id;
    assert_ne!(other, id);
    let shelf = Shelf::in_data_dir(app.dir.path());
    app.core.delete(&id, &shelf).await.unwrap();
    app.core.store().flush();
    let reread = ConversationStore::open_in(app.dir.path()).unwrap();
    assert!(reread.get(&id).is_err());
    let journals = std::fs::read_dir(app.dir.path().join("conversations")).unwrap();
    for journal in journals.flatten() {
        let text = std::fs::read_to_string(journal.path()).unwrap_or_default();
        assert!(
            !text.contains(&turn),
            "{:?} keeps the check",
            journal.path()
        );
    }
}
