//! A recorded Demo task made into a report and the file read back: the task, the answer, one
//! picture per step as a `data:` URI, the cost and the checks are in it; the key, the
//! service's address and any script are not. Against the simulator over real sockets.

use std::sync::Arc;
use std::time::Duration;

use porthole_client::approvals::ApprovalRequest;
use porthole_client::messages::{Criteria, CriterionCheck};
use porthole_client::{Client, ClientConfig, Credential};
use porthole_sim::{Config, RunningSim, Sim};
use tokio::sync::watch;

use super::*;
use crate::connection::Connection;
use crate::conversations::usage::UsageStore;
use crate::conversations::{Notify, SendOptions, SendRequest, TaskStatus};
use crate::persist::ConversationStore;

const SCALE: f64 = 0.01;

#[derive(Default)]
struct Ticks(watch::Sender<u64>);

impl Notify for Ticks {
    fn conversation_changed(&self, _: &Conversation, _: bool) {
        self.0.send_modify(|t| *t += 1);
    }
    fn needs_answer(&self, _: &Conversation, _: &ApprovalRequest) {}
    fn machine_starting(&self, _: &str) {}
    fn machines_changed(&self) {}
}

pub(super) struct Done {
    pub(super) sim: RunningSim,
    pub(super) key: String,
    pub(super) client: Client,
    pub(super) core: Conversations,
    pub(super) dir: tempfile::TempDir,
    pub(super) conversation: Conversation,
    pub(super) turn_id: String,
}

impl Done {
    /// The report of this task as a page that showed no sheet asks for it (no words of the
    /// page's, nothing hidden).
    pub(super) fn request(&self) -> ShareRequest {
        ShareRequest {
            conversation_id: self.conversation.id.clone(),
            turn_id: Some(self.turn_id.clone()),
            words: ReportWords::default(),
            hidden: None,
        }
    }

    /// The report `request` asks for, its films in this task's data folder.
    pub(super) async fn report(&self, request: &ShareRequest) -> AppResult<Report> {
        let shelf = Shelf::in_data_dir(self.dir.path());
        gather(&self.client, &self.core, &shelf, request, None).await
    }
}

/// Sends `text` to ada's Design laptop with `options` and waits for the task's end.
pub(super) async fn task(text: &str, options: SendOptions) -> Done {
    let sim = Sim::start(Config {
        time_scale: SCALE,
        ..Config::default()
    })
    .await
    .expect("the simulator starts");
    let key = sim.account("ada").api_key.clone().expect("a key");
    let client = Client::with_config(
        &sim.base_url,
        Credential::api_key(&key).unwrap(),
        ClientConfig::time_scaled(SCALE),
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let connection = Connection::default();
    connection.activate(client.clone(), "demo".into());
    let ticks = Arc::new(Ticks::default());
    let core = Conversations::new(
        connection,
        ConversationStore::open_in(dir.path()).unwrap(),
        UsageStore::open_in(dir.path()).unwrap(),
        ticks.clone(),
    );
    let laptop = client
        .machines()
        .list()
        .await
        .unwrap()
        .machines
        .into_iter()
        .find(|m| m.name.as_deref() == Some("Design laptop"))
        .unwrap()
        .machine_id;
    let id = core.current(&laptop).await.unwrap().id;
    let mut changes = ticks.0.subscribe();
    core.send(SendRequest {
        conversation_id: id.clone(),
        text: text.into(),
        options,
        ..SendRequest::default()
    })
    .await
    .unwrap();
    let wait = async {
        let mut answered = None;
        loop {
            let c = core.store().get(&id).unwrap();
            if matches!(c.status, TaskStatus::Succeeded | TaskStatus::Failed) {
                return c;
            }
            // A password is typed on the service's own page, as a person types it there.
            let card = c.pending_approval.as_ref();
            if let Some((approval, url)) =
                card.and_then(|a| Some((&a.approval_id, a.approval_url.as_ref()?)))
            {
                if answered.as_ref() != Some(approval) {
                    let typed = reqwest::Client::new()
                        .post(url)
                        .form(&[("decision", "approve"), ("secret", "hunter2")])
                        .send()
                        .await
                        .unwrap();
                    assert!(typed.status().is_success(), "{typed:?}");
                    answered = Some(approval.clone());
                }
            }
            changes.changed().await.unwrap();
        }
    };
    let conversation = tokio::time::timeout(Duration::from_secs(60), wait)
        .await
        .expect("the task ends");
    let turn_id = conversation
        .follower
        .as_ref()
        .and_then(|f| f.turn_id.clone())
        .expect("a turn id");
    Done {
        sim,
        key,
        client,
        core,
        dir,
        conversation,
        turn_id,
    }
}

fn recorded() -> SendOptions {
    SendOptions {
        record_steps: true,
        ..SendOptions::default()
    }
}

#[tokio::test]
async fn a_recorded_task_becomes_one_self_contained_file_without_secrets() {
    let done = task("Look up the weather in Paris", recorded()).await;
    assert_eq!(done.conversation.status, TaskStatus::Succeeded);
    let cost = cost_usd(&done.core, &done.conversation, Some(&done.turn_id));
    assert!(cost.expect("the task's cost was kept") >= 0.0);
    // The page words the date and the cost (Intl); the file carries its words.
    let said = ReportWords {
        made_at: Some("November 26, 2026 at 2:05\u{202f}PM UTC".into()),
        cost: Some("$0.52".into()),
        receipt: None,
    };
    let report = gather(
        &done.client,
        &done.core,
        &Shelf::in_data_dir(done.dir.path()),
        &ShareRequest {
            conversation_id: done.conversation.id.clone(),
            turn_id: Some(done.turn_id.clone()),
            words: said,
            hidden: None,
        },
        Some("Design laptop".into()),
    )
    .await
    .unwrap();
    let path = done.dir.path().join("report.html");
    save(&report, &path).unwrap();
    let html = std::fs::read_to_string(&path).unwrap();

    assert!(html.contains("Look up the weather in Paris"), "the task");
    let answer = report.answer.clone().expect("the answer");
    assert!(!answer.is_empty());
    // The Demo's answer leads with its result in bold Markdown: shown bold, without the stars.
    let first_line = answer.lines().next().unwrap().trim_matches('*');
    assert!(
        html.contains(&format!(
            "<strong>{}</strong>",
            maud::html! { (first_line) }.into_string()
        )),
        "the answer, from its Markdown: {answer}"
    );
    assert!(!html.contains("**"), "no Markdown stars left");
    assert!(report.steps.len() >= 2, "{:#?}", report.steps);
    let pictures = html.matches("<img src=\"data:image/jpeg;base64,").count();
    assert_eq!(pictures, report.steps.len(), "one picture per step, inside");
    // Counted as the Steps sheet counts: the service's final screen is shown, not numbered.
    let numbered: Vec<usize> = report.steps.iter().filter_map(|s| s.number).collect();
    assert_eq!(numbered, (1..=numbered.len()).collect::<Vec<_>>());
    assert_eq!(
        report.steps.last().and_then(|s| s.number),
        None,
        "the final screen last"
    );
    assert!(html.contains(&format!("<dt>Steps</dt><dd>{}</dd>", numbered.len())));
    assert!(html.contains("The final screen"));
    assert!(
        html.contains("<dd data-part=\"cost\">$0.52</dd>"),
        "the cost"
    );
    assert!(
        html.contains("<dd data-part=\"made\">November 26, 2026 at 2:05\u{202f}PM UTC</dd>"),
        "when it was made"
    );
    assert!(html.contains("Design laptop"));
    // The service's record is the timeline, and the report says so.
    assert_eq!(report.source, Some(Source::Service));
    assert!(html.contains("data-source=\"service\""));

    // Nothing secret and nothing to fetch.
    assert!(!html.contains(&done.key), "no API key");
    let token = done.sim.account("ada").id_token.clone();
    assert!(!html.contains(&token), "no sign-in token");
    let base = done.sim.base_url.trim_end_matches('/');
    assert!(!html.contains(base), "no service address");
    let host = base.trim_start_matches("http://");
    assert!(!html.contains(host), "not even its host and port");
    assert!(!html.contains("127.0.0.1"));
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "no URL at all"
    );
    assert!(!html.to_lowercase().contains("<script"), "no script");
    assert!(!html.contains("/v1/"), "no path of the service");
}

#[tokio::test]
async fn the_checks_of_a_task_with_success_criteria_are_in_the_report() {
    let criteria = Criteria::Checks(vec![CriterionCheck {
        id: "names-the-city".into(),
        check: "The answer names the city".into(),
        return_evidence: Some(true),
    }]);
    let done = task(
        "Look up the weather in Rome",
        SendOptions {
            success_criteria: Some(criteria),
            ..SendOptions::default()
        },
    )
    .await;
    let report = done.report(&done.request()).await.unwrap();
    assert!(!report.recorded);
    assert!(report.steps.is_empty());
    assert_eq!(report.checks.len(), 1, "{report:#?}");
    let html = page::html(&report);
    assert!(html.contains("names-the-city"));
    // The page said neither date nor cost: no date, and no cost made up.
    assert!(html.contains("<dd data-part=\"cost\">Not reported</dd>"));
    assert!(!html.contains("data-part=\"made\""));
    assert!(
        html.contains("were not recorded"),
        "says why there are no steps"
    );
}

#[test]
fn what_the_agent_wrote_stays_text_and_the_address_is_taken_out() {
    let report = Report {
        task: "Open <b>this</b> & that".into(),
        computer: "Box".into(),
        outcome: "Done".into(),
        receipt: None,
        by_turn: true,
        source: Some(Source::Service),
        frames: vec![],
        recorded: true,
        steps: vec![ReportStep {
            number: Some(1),
            title: "<script>alert(1)</script>".into(),
            rationale: "Went to http://127.0.0.1:4567/v1/x".into(),
            code: "print(\"</pre>\")".into(),
            error: None,
            screenshot: None,
        }],
        answer: Some("\"quoted\" <img src=x onerror=alert(1)>".into()),
        cost: "< $0.01".into(),
        checks: vec![],
        made_at: Some("<b>today</b>".into()),
    };
    let report = without_address(report, "http://127.0.0.1:4567/");
    let html = page::html(&report);
    assert!(!html.contains("<script>"));
    assert!(!html.contains("<b>this</b>"));
    assert!(!html.contains("<img src=x"));
    assert!(html.contains("&lt;script&gt;"));
    assert!(!html.contains("127.0.0.1:4567"));
    assert!(html.contains("[the service]/v1/x"));
    // The page's words are text too.
    assert!(html.contains("&lt; $0.01"));
    assert!(html.contains("&lt;b&gt;today&lt;/b&gt;"));
}

#[test]
fn the_answer_reads_as_its_markdown_and_nothing_in_it_can_act() {
    let answer =
        "**Oslo: 4 °C**\n\n- rain\n- wind\n\nSee [the forecast](https://weather.example/oslo) \
        or [this](javascript:alert(1)).\n\n![a chart](https://weather.example/chart.png)\n\n\
        <script>alert(2)</script>\n\nA <b>bold</b> claim.";
    let report = Report {
        task: "t".into(),
        computer: "c".into(),
        outcome: "Done".into(),
        receipt: None,
        by_turn: true,
        source: None,
        frames: vec![],
        recorded: false,
        steps: vec![],
        answer: Some(answer.into()),
        cost: "Not reported".into(),
        checks: vec![],
        made_at: None,
    };
    let html = page::html(&report);
    assert!(html.contains("<strong>Oslo: 4 °C</strong>"), "{html}");
    assert!(html.contains("<li>rain</li>"));
    // Links are their words and web address; images their description; HTML is text.
    assert!(html.contains("See the forecast (https://weather.example/oslo) or this."));
    assert!(!html.contains("<a "), "nothing to open");
    assert!(!html.contains("javascript:"));
    assert!(!html.contains("<img src=\"https"), "nothing to fetch");
    assert!(html.contains("a chart"));
    assert!(!html.contains("<script>"));
    assert!(html.contains("&lt;script&gt;alert(2)&lt;/script&gt;"));
    assert!(html.contains("A &lt;b&gt;bold&lt;/b&gt; claim."));

    // A structured output stays as it was given.
    let data = Report {
        answer: Some("{\n  \"city\": \"Oslo\"\n}".into()),
        ..report
    };
    let html = page::html(&data);
    assert!(
        html.contains("<pre class=\"data\">{\n  &quot;city&quot;: &quot;Oslo&quot;\n}</pre>"),
        "{html}"
    );
}

#[test]
fn a_file_that_cannot_be_written_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let report = Report {
        task: "t".into(),
        computer: "c".into(),
        outcome: "Done".into(),
        receipt: None,
        by_turn: true,
        source: None,
        frames: vec![],
        recorded: false,
        steps: vec![],
        answer: None,
        cost: "Not reported".into(),
        checks: vec![],
        made_at: None,
    };
    // A "folder" that is a file: nothing can be written under it.
    let file = dir.path().join("a-file");
    std::fs::write(&file, b"x").unwrap();
    let err = save(&report, &file.join("report.html")).unwrap_err();
    assert!(matches!(err, AppError::ReportNotSaved(_)), "{err:?}");
}
