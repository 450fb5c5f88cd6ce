//! The agent's cards beyond yes/no: a choice of several questions, and a link-only card whose
//! secret is typed on the service's own page; and a pick the service refuses, which the card
//! cannot foresee.

use porthole_e2e::{by_testid, App, AppOptions, Eventually};
use porthole_sim::faults::{Fault, FaultSpec, Faults};

use crate::card_flows::{answer_of_a_success, focused, pick, send_to_design_laptop};
use crate::flows::{own_demo_with, wait_for_status};

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_card_of_two_questions_is_answered_with_several_picks() {
    let app = App::launch().await.expect("the app opens");
    let wait = Eventually::new(&app.driver);
    send_to_design_laptop(&app, "Plan a trip for the weekend").await;

    let send = wait
        .element("approval-send-choice")
        .await
        .expect("a choice card");
    // Nothing that answers has the focus: Enter pressed by habit answers nothing.
    assert_eq!(focused(&app).await, "approval-title");
    let questions = wait.at_least("approval-question", 2).await.unwrap();
    // The city may be written in; the days may not, and several may be picked.
    assert_eq!(
        questions[0]
            .find_all(by_testid("approval-other"))
            .await
            .unwrap()
            .len(),
        1
    );
    assert!(questions[1]
        .find_all(by_testid("approval-other"))
        .await
        .unwrap()
        .is_empty());
    pick(&questions[0], "Rome").await;
    assert!(
        !send.is_enabled().await.unwrap(),
        "a question is left: nothing to send"
    );
    pick(&questions[1], "Saturday").await;
    pick(&questions[1], "Sunday").await;
    app.screenshot("card-two-questions")
        .await
        .expect("screenshot");
    send.click().await.unwrap();
    wait.gone("approval-send-choice")
        .await
        .expect("the card closes");

    let answer = answer_of_a_success(&app).await.unwrap();
    assert!(
        answer.contains("Rome"),
        "the agent followed the picks: {answer}"
    );
    app.quit().await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_password_is_asked_for_on_the_services_own_page() {
    web_page_card("light").await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_password_is_asked_for_on_the_services_own_page_dark() {
    web_page_card("dark").await;
}

/// The Demo's agent asked to sign in raises a web-page card (link-only: the password is
/// typed on the service's page): the chip, the thread's line and the card's kicker each say
/// it is a web page, not an approval or a permission.
async fn web_page_card(scheme: &str) {
    let gtk = if scheme == "dark" {
        "Adwaita:dark"
    } else {
        "Adwaita"
    };
    let app = App::launch_with(AppOptions {
        env: vec![
            ("PORTHOLE_THEME".into(), scheme.into()),
            ("GTK_THEME".into(), gtk.into()),
        ],
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    let wait = Eventually::new(&app.driver);
    send_to_design_laptop(&app, "Sign in to the library website").await;

    let words = wait
        .text("approval-link-only", |t| !t.is_empty())
        .await
        .expect("a link-only card");
    assert!(words.contains("Porthole never sees it"), "{words}");
    wait.text("status-chip", |t| t == "Needs you on a web page")
        .await
        .expect("the chip says a web page waits, not an approval");
    // The kicker is drawn in capitals.
    wait.text("approval-card", |t| {
        t.to_lowercase()
            .contains("the agent needs you on a web page")
    })
    .await
    .expect("the card's kicker says a web page");
    let asked = crate::flows::thread_words(&app, "approval").await;
    assert!(
        asked
            .iter()
            .any(|l| l.starts_with("Asked you to answer on a web page: ")),
        "the thread's line for a web page: {asked:?}"
    );
    assert!(
        !asked.iter().any(|l| l.contains("permission")),
        "not called a permission: {asked:?}"
    );
    wait.element("approval-open-page")
        .await
        .expect("a way to the page");
    // Nothing to approve here: the answer is given on the page.
    assert!(app
        .driver
        .find_all(by_testid("approval-approve"))
        .await
        .unwrap()
        .is_empty());
    app.screenshot(&format!("card-link-only-{scheme}"))
        .await
        .expect("screenshot");
    app.quit().await;
}

const REJECT_PICK: &str = "reject-pick=0.5";

/// A seed whose `reject-pick` draws refuse the first pick sent and take the second, found with
/// the simulator's own generator: the service really refuses at a rate, and the app has no
/// test-only switch.
fn seed_refusing_the_first_pick() -> u64 {
    let spec = FaultSpec::parse(REJECT_PICK).unwrap();
    (0..10_000)
        .find(|seed| {
            let faults = Faults::new(spec.clone(), *seed);
            faults.roll(Fault::RejectPick) && !faults.roll(Fault::RejectPick)
        })
        .expect("a seed")
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_rejected_pick_keeps_the_card_open_with_a_sentence_and_sending_again_is_taken() {
    let (_sim, env) = own_demo_with(porthole_sim::Config {
        time_scale: 0.05,
        faults: FaultSpec::parse(REJECT_PICK).unwrap(),
        seed: seed_refusing_the_first_pick(),
        ..porthole_sim::Config::default()
    })
    .await;
    let app = App::launch_with(AppOptions {
        env,
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    let wait = Eventually::new(&app.driver);
    send_to_design_laptop(&app, "Look up the weather, which city is up to you").await;

    let send = wait
        .element("approval-send-choice")
        .await
        .expect("a choice card");
    let questions = wait.at_least("approval-question", 1).await.unwrap();
    pick(&questions[0], "Rome").await;
    send.click().await.unwrap();

    let refusal = wait
        .text("approval-refusal", |t| !t.is_empty())
        .await
        .expect("the refusal is said on the card");
    assert!(
        refusal.contains("wasn't accepted") && refusal.contains("pick again"),
        "{refusal}"
    );
    wait.element("approval-send-choice")
        .await
        .expect("the card stays open");
    assert_eq!(
        wait_for_status(&app, &["needsApproval"]).await.unwrap(),
        "needsApproval"
    );
    app.screenshot("card-pick-refused")
        .await
        .expect("screenshot");

    // The pick is kept: sending it again is one press. The refusal made the card taller than
    // the thread's view: bring Send into view as a person would scroll to it.
    let send = wait.element("approval-send-choice").await.unwrap();
    assert!(send.is_enabled().await.unwrap(), "the pick is kept");
    app.driver
        .execute(
            "arguments[0].scrollIntoView({block: 'center'})",
            vec![send.to_json().unwrap()],
        )
        .await
        .unwrap();
    send.click().await.unwrap();
    wait.gone("approval-send-choice")
        .await
        .expect("the card closes");
    let answer = answer_of_a_success(&app).await.unwrap();
    assert!(
        answer.contains("Rome"),
        "the agent followed the pick: {answer}"
    );
    app.quit().await;
}
