//! The client's flows against a simulator answering in the makers' shapes (`--shapes makers`):
//! every answer the makers' own client accepts, this client accepts too.

use porthole_client::approvals::Answer;
use porthole_client::events::StatusKind;
use porthole_client::machines::MachineKind;
use porthole_client::messages::{MessageOutcome, MessageRequest};
use porthole_client::sessions::ContextRole;
use porthole_client::{TaskFollower, TaskUpdate, Transport};

use crate::support::*;
use crate::tasks::{finished, follow_to_end};

/// Runs `task` on `machine` over the stream, a card answered yes, to its end.
async fn run(ada: &porthole_client::Client, machine: &str, task: &str) -> Vec<TaskUpdate> {
    let follower = TaskFollower::start(ada, &MessageRequest::new(task, machine), Transport::Stream)
        .await
        .unwrap();
    follow_to_end(ada, follower, Answer::Yes).await
}

#[tokio::test]
async fn a_key_connects_and_a_row_without_kind_is_a_computer_of_unknown_kind() {
    let sim = makers_sim().await;
    let ada = client(&sim, "ada");
    ada.auth().check().await.expect("the key is accepted");
    let machines = ada
        .machines()
        .list()
        .await
        .expect("the list is read")
        .machines;
    assert!(machines.len() > 1, "every row is there: {machines:?}");
    assert_eq!(machines[0].kind, MachineKind::Other(String::new()));
    assert!(machines[1..]
        .iter()
        .all(|m| !matches!(m.kind, MachineKind::Other(_))));
}

#[tokio::test]
async fn a_task_runs_to_its_end_with_its_approval_answered_on_a_blank_body() {
    let sim = makers_sim().await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let follower = TaskFollower::start(
        &ada,
        &MessageRequest::new("Delete the old screenshots folder", &laptop),
        Transport::Stream,
    )
    .await
    .unwrap();
    // `follow_to_end` answers the card and fails on an error: a blank 2xx is `Ok`.
    let updates = follow_to_end(&ada, follower, Answer::Yes).await;
    let card = updates
        .iter()
        .find_map(|u| match u {
            porthole_client::TaskUpdate::NeedsApproval { approval } => Some(approval),
            _ => None,
        })
        .expect("the card was asked");
    // Its expiry came as a number in text: still a time the card ends at.
    assert!(
        card.expires_at.is_some_and(|at| at > 1_700_000_000_000),
        "{card:?}"
    );
    assert!(finished(&updates).0, "the approved task finishes");
}

#[tokio::test]
async fn wake_new_conversation_and_abort_take_blank_answers() {
    let sim = makers_sim().await;
    let ada = client(&sim, "ada");
    let research = machine(&ada, "Research box").await;
    let woken = ada
        .machines()
        .wake(&research)
        .await
        .expect("a blank wake is Ok");
    assert!(woken.is_blank(), "nothing was said: {woken:?}");

    let laptop = machine(&ada, "Design laptop").await;
    let fresh = ada
        .sessions()
        .new(&laptop)
        .await
        .expect("a blank new-session is Ok");
    assert_eq!(fresh.session_id, None);

    let started = match ada
        .messages()
        .send(&MessageRequest::new(
            "Look up the weather in Accra",
            &laptop,
        ))
        .await
        .unwrap()
    {
        MessageOutcome::Started(started) => started,
        other => panic!("{other:?}"),
    };
    let stopped = ada
        .abort()
        .session(&started.session_id)
        .await
        .expect("a blank abort by session is Ok");
    // A blank answer says nothing of what ran: never worded as "nothing was running".
    assert_eq!(stopped.aborted, None);
    assert!(!stopped.nothing_was_running());
    ada.abort()
        .machine(&laptop)
        .await
        .expect("a blank abort by machine is Ok");
}

#[tokio::test]
async fn an_upload_goes_back_with_every_field_it_came_with() {
    let sim = makers_sim().await;
    let ada = client(&sim, "ada");
    let upload = ada
        .uploads()
        .upload("photo.png", vec![7u8; 2048], None)
        .await
        .unwrap();
    assert!(upload.download_url.is_some(), "{upload:?}");
    assert_eq!((upload.width, upload.height), (Some(640), Some(480)));

    let laptop = machine(&ada, "Design laptop").await;
    let mut request = MessageRequest::new("Describe the attached picture", &laptop);
    request.attachments = vec![upload.clone()];
    let outcome = ada.messages().send(&request).await.unwrap();
    assert!(matches!(outcome, MessageOutcome::Started(_)));

    let db = sim.state().db();
    let turn = db
        .turns
        .values()
        .find(|t| t.message == "Describe the attached picture")
        .expect("the task arrived");
    let sent = &turn.attachments[0];
    assert_eq!(sent["downloadUrl"], upload.download_url.unwrap().as_str());
    assert_eq!(sent["width"], 640);
    assert_eq!(sent["height"], 480);
    assert_eq!(sent["fileId"], upload.file_id.unwrap().as_str());
    assert_eq!(sent["path"], upload.path.as_str());
}

#[tokio::test]
async fn a_stream_with_keepalives_and_a_session_named_by_id_and_title_is_followed_to_its_end() {
    let sim = makers_sim().await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let updates = run(&ada, &laptop, "Look up the weather in Accra").await;
    let named = updates.iter().find_map(|u| match u {
        TaskUpdate::Started { session_id, .. } => Some(session_id.clone()),
        _ => None,
    });
    let on_service = sim
        .state()
        .db()
        .sessions
        .keys()
        .next()
        .cloned()
        .expect("the task has its session");
    assert_eq!(named.as_deref(), Some(on_service.as_str()), "{updates:?}");
    assert!(finished(&updates).0, "{updates:?}");
}

#[tokio::test]
async fn a_history_with_a_null_content_and_a_line_without_role_is_read_whole() {
    let sim = makers_sim().await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    assert!(finished(&run(&ada, &laptop, "Look up the weather in Accra").await).0);
    let lines = ada
        .sessions()
        .context(&laptop, 30)
        .await
        .expect("an odd history is still read")
        .messages;
    assert!(lines
        .iter()
        .any(|l| l.role == ContextRole::User && l.content.contains("weather in Accra")));
    let odd = &lines[lines.len() - 2..];
    assert_eq!(odd[0].role, ContextRole::Assistant);
    assert_eq!(odd[0].content, "", "null content is empty text");
    assert!(matches!(odd[1].role, ContextRole::Other(_)), "{:?}", odd[1]);
    assert_eq!(odd[1].content, "Working on it.");
}

#[tokio::test]
async fn a_computer_that_does_not_pick_the_task_up_is_stalled() {
    let sim = makers_sim().await;
    let ada = client(&sim, "ada");
    let archive = machine(&ada, "Studio archive").await;
    let updates = run(&ada, &archive, "Open the calculator").await;
    assert!(
        updates.iter().any(|u| matches!(
            u,
            TaskUpdate::Status {
                about: Some(StatusKind::Stalled),
                ..
            }
        )),
        "{updates:?}"
    );
}

#[tokio::test]
async fn the_persons_own_computer_is_stalled_before_it_picks_the_task_up_and_then_runs_it() {
    let sim = makers_sim().await;
    let ada = client(&sim, "ada");
    let own = machine(&ada, "Ada's MacBook").await;
    let updates = run(&ada, &own, "Look up the weather in Accra").await;
    let stalled = updates.iter().position(|u| {
        matches!(
            u,
            TaskUpdate::Status {
                about: Some(StatusKind::Stalled),
                ..
            }
        )
    });
    let worked = updates.iter().position(|u| {
        matches!(
            u,
            TaskUpdate::Narration { .. } | TaskUpdate::Progress { .. }
        )
    });
    assert!(stalled.is_some(), "{updates:?}");
    assert!(
        worked.is_some() && stalled < worked,
        "news before the work: {updates:?}"
    );
    assert!(
        finished(&updates).0,
        "a stalled task still runs: {updates:?}"
    );
}

#[tokio::test]
async fn another_accounts_computer_is_not_yours() {
    let sim = makers_sim().await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let ben = client(&sim, "fred");
    let err = ben
        .messages()
        .send(&MessageRequest::new("Open the calculator", &laptop))
        .await
        .expect_err("not ben's computer");
    assert_eq!(
        err.code(),
        porthole_client::ErrorCode::NotYourMachine,
        "{err:?}"
    );
    let err = ben
        .machines()
        .wake(&laptop)
        .await
        .expect_err("not ben's computer");
    assert_eq!(
        err.code(),
        porthole_client::ErrorCode::NotYourMachine,
        "{err:?}"
    );
}

#[tokio::test]
async fn the_live_screen_is_given() {
    let sim = porthole_sim::Sim::start(porthole_sim::Config {
        time_scale: 0.05,
        shapes: porthole_sim::Shapes::Makers,
        ..porthole_sim::Config::default()
    })
    .await
    .unwrap();
    let key = sim.account("ada").api_key.clone().unwrap();
    let ada = porthole_client::Client::with_config(
        &sim.base_url,
        porthole_client::Credential::api_key(&key).unwrap(),
        porthole_client::ClientConfig::default(),
    )
    .unwrap();
    let laptop = machine(&ada, "Design laptop").await;
    let live = ada.machines().live(&laptop).await;
    assert!(live.is_ok(), "{live:?}");
}
