//! Runs that end while the person is away: one digest, told once when nothing is under way,
//! shown on the card when they come back; a run they watched start is told on its own.

use super::running::{app, open, started_in};
use super::*;
use crate::words::catalog::text_in;
use crate::words::language::Language;

#[tokio::test]
async fn runs_that_end_while_the_person_is_away_are_told_in_one_digest_and_shown_on_return() {
    let clock = TestClock::at("2026-03-27 07:30");
    let app = app(clock.clone()).await;
    let daily = || Repeat::Daily { time: at(8, 0) };
    let weather = app
        .schedule_on("Design laptop", "Check the weather in Paris", daily())
        .await;
    let invoices = app
        .schedule_on("Research box", "Look for new invoices", daily())
        .await;
    let photos = app
        .schedule_on("Studio archive", "Back up the photos", daily())
        .await;

    // The window is closed to the tray for the night.
    app.schedules.set_present(false);
    clock.set("2026-03-27 07:57");
    app.schedules.tick().await;
    let research = app.machine_named("Research box").await;
    app.until_status(&research, porthole_client::machines::MachineStatus::Active)
        .await;
    clock.set("2026-03-27 08:00");
    app.schedules.tick().await;
    assert_eq!(app.sent().len(), 2, "{:?}", app.sent());
    assert!(
        app.told().is_empty(),
        "nothing told while runs are under way"
    );
    for schedule in [&weather, &invoices] {
        let id = started_in(&app.get(&schedule.id));
        app.until_ended(&id).await;
    }
    clock.set("2026-03-27 08:05");
    app.schedules.tick().await;
    app.schedules.tick().await;
    let headline = "3 scheduled runs while you were away: 2 done, 1 needs you";
    assert_eq!(
        app.told(),
        vec![format!(
            "Digest: {headline}: Back up the photos: Missed: Studio archive could not be woken\n\
             Check the weather in Paris: Done\n\
             Look for new invoices: Done"
        )],
        "one notification for the three runs"
    );
    assert_eq!(
        app.schedules.digest(),
        None,
        "the card waits for the person"
    );

    // Porthole restarts before the person is back: the digest is kept with the app's data,
    // shown on the card of the new start, and not told a second time.
    let restarted = open(
        app.dir.path(),
        &app.connection,
        &app.conversations,
        &clock,
        &app.told,
    );
    restarted.set_present(false);
    restarted.tick().await;
    let kept = restarted.digest().expect("the card survives a restart");
    assert_eq!(kept.headline, headline);
    let titles: Vec<&str> = kept.lines.iter().map(|l| l.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Back up the photos",
            "Check the weather in Paris",
            "Look for new invoices"
        ]
    );
    restarted.set_present(true);
    assert_eq!(app.told().len(), 1, "told once, before the restart");
    // Dismissed, it stays dismissed across the next restart.
    restarted.dismiss_digest();
    drop(restarted);
    let again = open(
        app.dir.path(),
        &app.connection,
        &app.conversations,
        &clock,
        &app.told,
    );
    assert_eq!(again.digest(), None);
    drop(again);

    // The person comes back: the card, each run a line; the missed one opens the schedules.
    app.schedules.set_present(true);
    let card = app
        .schedules
        .list()
        .await
        .unwrap()
        .digest
        .expect("the card");
    assert_eq!(card.headline, headline);
    let lines: Vec<(&str, bool, bool)> = card
        .lines
        .iter()
        .map(|l| (l.title.as_str(), l.done, l.conversation_id.is_some()))
        .collect();
    assert_eq!(
        lines,
        vec![
            ("Back up the photos", false, false),
            ("Check the weather in Paris", true, true),
            ("Look for new invoices", true, true),
        ],
        "in the order they ended"
    );
    assert_eq!(card.lines[0].schedule_id, photos.id);
    assert_eq!(
        card.lines[1].conversation_id,
        Some(started_or_ended_in(&app.get(&weather.id)))
    );

    // The person deletes the conversation of a run: its line leaves the card (it would open
    // nothing), the headline counts what is left, and digest.json keeps none of it.
    let deleted = started_or_ended_in(&app.get(&weather.id));
    let shelf = crate::film::Shelf::in_data_dir(app.dir.path());
    app.conversations.delete(&deleted, &shelf).await.unwrap();
    let card = app.schedules.digest().expect("the other runs stay");
    assert_eq!(
        card.headline,
        "2 scheduled runs while you were away: 1 done, 1 needs you"
    );
    let titles: Vec<&str> = card.lines.iter().map(|l| l.title.as_str()).collect();
    assert_eq!(titles, ["Back up the photos", "Look for new invoices"]);
    let saved = std::fs::read_to_string(app.dir.path().join("digest.json")).unwrap();
    assert!(!saved.contains(&deleted), "{saved}");
    let restarted = open(
        app.dir.path(),
        &app.connection,
        &app.conversations,
        &clock,
        &app.told,
    );
    assert_eq!(restarted.digest(), Some(card));
    drop(restarted);

    app.schedules.dismiss_digest();
    assert_eq!(app.schedules.digest(), None);
    assert_eq!(app.told().len(), 1, "coming back tells nothing more");
}

fn started_or_ended_in(schedule: &Schedule) -> String {
    match &schedule.last.as_ref().unwrap().outcome {
        Outcome::Started {
            conversation_id, ..
        }
        | Outcome::Ended {
            conversation_id, ..
        } => conversation_id.clone(),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_run_the_person_saw_start_is_told_on_its_own_and_one_after_they_return_too() {
    let clock = TestClock::at("2026-03-27 07:55");
    let app = app(clock.clone()).await;
    let weather = app
        .schedule_on(
            "Design laptop",
            "Check the weather in Paris",
            Repeat::Daily { time: at(8, 0) },
        )
        .await;
    clock.set("2026-03-27 08:00");
    app.schedules.tick().await;
    // Left a minute after it started: not a run of the time away.
    clock.set("2026-03-27 08:01");
    app.schedules.set_present(false);
    let id = started_in(&app.get(&weather.id));
    app.until_ended(&id).await;
    app.schedules.tick().await;
    assert_eq!(
        app.told(),
        vec!["Scheduled task: Check the weather in Paris: It is done. On Design laptop."]
    );
    app.schedules.set_present(true);
    assert_eq!(app.schedules.digest(), None, "nothing was kept");
}

#[test]
fn the_headline_counts_in_both_languages() {
    assert_eq!(
        text_in(
            Language::De,
            "scheduleNotes.digestHeadline",
            &[
                ("count", 3usize.into()),
                ("summary", "2 erledigt, 1 braucht dich".into())
            ]
        ),
        "3 geplante Durchläufe, während du weg warst: 2 erledigt, 1 braucht dich"
    );
    assert_eq!(
        text_in(
            Language::En,
            "scheduleNotes.digestNeedsYou",
            &[("count", 2usize.into())]
        ),
        "2 need you"
    );
    assert_eq!(
        text_in(
            Language::De,
            "scheduleNotes.digestNeedsYou",
            &[("count", 1usize.into())]
        ),
        "1 braucht dich"
    );
}
