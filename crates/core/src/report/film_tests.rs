//! A report without a turn id: the receipt first, the film as its timeline, hidden areas burned in.

use super::tests::task;
use super::*;
use crate::conversations::SendOptions;
use crate::film::{Moment, Recorder};

/// Without a turn id (as the real service may never give one) the report is the last task as
/// the app kept it: it opens with the receipt the page worded, and its timeline is Porthole's
/// film: each frame's picture inside, its step marked and captioned. No service record is
/// asked for.
#[tokio::test]
async fn without_a_turn_id_the_report_opens_with_the_receipt_and_the_film_is_its_timeline() {
    let done = task("Look up the weather in Paris", SendOptions::default()).await;
    let shelf = Shelf::in_data_dir(done.dir.path());
    let started = done
        .conversation
        .task_started_at
        .expect("its start was kept") as u64;
    let mut film =
        Recorder::start(shelf.root(), &done.conversation.id, started + 300, 1 << 24).unwrap();
    let picture = || crate::film::encode_picture(40, 30, vec![200; 40 * 30 * 3]);
    let step = |n: u32, title: &str| Moment {
        steps: n,
        step_title: Some(title.into()),
        narration: Some(format!("Now {title}, see {}", done.sim.base_url)),
    };
    film.offer(started + 300, &Moment::default(), picture)
        .unwrap();
    film.offer(started + 800, &step(1, "Open Browser"), picture)
        .unwrap();
    film.offer(started + 2_000, &step(2, "Search the weather"), picture)
        .unwrap();
    film.finish(&step(2, "Search the weather")).unwrap();

    let said = ReportWords {
        made_at: None,
        cost: Some("$0.04".into()),
        receipt: Some(SaidReceipt {
            outcome: crate::receipt::ReceiptOutcome::Done,
            outcome_words: "Done".into(),
            why: None,
            judged: "Read from how the task ended and the agent’s answer".into(),
            touched: vec!["Opened Browser".into()],
            figures: vec!["Took 42 sec".into(), "Cost $0.04".into()],
        }),
    };
    let report = gather(
        &done.client,
        &done.core,
        &shelf,
        &ShareRequest {
            conversation_id: done.conversation.id.clone(),
            turn_id: None,
            words: said,
            hidden: None,
        },
        Some("Design laptop".into()),
    )
    .await
    .unwrap();
    assert!(!report.by_turn);
    assert_eq!(report.source, Some(Source::Film));
    assert_eq!(report.frames.len(), 3, "{:#?}", report.frames);
    assert_eq!(
        report.frames.iter().map(|f| f.step).collect::<Vec<_>>(),
        [None, Some(1), Some(2)]
    );
    assert!(report.answer.is_some(), "the answer as the app kept it");
    let html = page::html(&report);
    // It opens with the receipt: right after the task's words, before every other part.
    let at = |part: &str| {
        html.find(&format!("data-part=\"{part}\""))
            .unwrap_or_else(|| panic!("{part} in {html}"))
    };
    assert!(at("task") < at("receipt"));
    for later in ["outcome", "cost", "answer", "timeline", "frame"] {
        assert!(at("receipt") < at(later), "the receipt before the {later}");
    }
    assert!(html.contains("data-outcome=\"done\""));
    assert!(html.contains("<li>Opened Browser</li>"));
    assert!(html.contains("Took 42 sec · Cost $0.04"));
    // The film is the timeline, and the report says where its steps come from.
    assert!(html.contains("data-source=\"film\""));
    assert!(html.contains("From Porthole's recording of the computer's screen"));
    assert_eq!(
        html.matches("<img src=\"data:image/jpeg;base64,").count(),
        3
    );
    assert_eq!(html.matches("data-part=\"frame\"").count(), 3);
    assert!(html.contains("Search the weather"), "a step's caption");
    assert!(
        html.contains("<dt>Steps</dt><dd>2</dd>"),
        "the steps marked in the film"
    );
    // The captions quote the agent: the service's address is taken out of them too.
    assert!(!html.contains(done.sim.base_url.trim_end_matches('/')));
    assert!(!html.contains("127.0.0.1"));

    // The sheet is shown over this film's frames; what the person hid there is burned into the
    // saved file's pictures: read back out of the HTML and decoded, the area is the cover
    // colour, the rest of the picture and the other pictures as recorded.
    let conversation = done.core.store().get(&done.conversation.id).unwrap();
    let shown = timeline::film_of(&shelf, &conversation).expect("the report carries the film");
    assert_eq!(shown.frames, [0, 1, 2]);
    let hidden = ReportRedactions::Film(HiddenOnFilm {
        film_id: shown.film_id,
        redactions: crate::film::sharing::Redactions {
            hidden_frames: Vec::new(),
            areas: vec![crate::film::sharing::HiddenArea {
                frame: Some(1),
                x: 0.25,
                y: 0.25,
                width: 0.5,
                height: 0.5,
            }],
            strokes: Vec::new(),
        },
    });
    let report = gather(
        &done.client,
        &done.core,
        &shelf,
        &ShareRequest {
            conversation_id: done.conversation.id.clone(),
            turn_id: None,
            words: ReportWords::default(),
            hidden: Some(hidden),
        },
        None,
    )
    .await
    .unwrap();
    let path = done.dir.path().join("redacted.html");
    save(&report, &path).unwrap();
    let html = std::fs::read_to_string(&path).unwrap();
    let pictures: Vec<image::RgbImage> = html
        .split("<img src=\"data:image/jpeg;base64,")
        .skip(1)
        .map(|rest| {
            let b64 = &rest[..rest.find('"').unwrap()];
            let bytes = STANDARD.decode(b64).unwrap();
            image::load_from_memory(&bytes).unwrap().to_rgb8()
        })
        .collect();
    assert_eq!(pictures.len(), 3);
    let near = |p: &image::Rgb<u8>, c: [u8; 3]| p.0.iter().zip(c).all(|(a, b)| a.abs_diff(b) <= 12);
    let cover = crate::film::sharing::COVER;
    // Inside the area (40 × 30: 10..30 across, 7..23 down), away from the edges a JPEG blurs.
    for (x, y) in [(13, 11), (20, 15), (26, 19)] {
        assert!(
            near(pictures[1].get_pixel(x, y), cover),
            "({x}, {y}) hidden"
        );
    }
    for (x, y) in [(2, 2), (37, 27), (5, 15), (35, 15)] {
        assert!(
            near(pictures[1].get_pixel(x, y), [200; 3]),
            "({x}, {y}) as recorded"
        );
    }
    assert!(
        pictures[0]
            .pixels()
            .chain(pictures[2].pixels())
            .all(|p| near(p, [200; 3])),
        "the pictures nothing was hidden on leave as recorded"
    );
}
