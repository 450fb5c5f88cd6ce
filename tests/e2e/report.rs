//! "Share a report": a recorded Demo task saved as one HTML file through the redaction sheet
//! (the save dialog's answer is given by the test, as the system's dialog is not part of the
//! page), then read back (the task, the answer, each step's picture inside, the cost; no key,
//! no service address, no script) and opened in a browser apart from Porthole, where every
//! picture shows, and in Chromium for a picture of it; the PDF the app printed beside it is
//! read back.

use porthole_e2e::{App, AppOptions, Browser, Eventually};
use thirtyfour::WebElement;

use crate::replay::{keep_screenshot, recorded_steps};

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_recorded_task_is_shared_as_one_file_that_opens_in_a_browser() {
    let out = tempfile::tempdir().unwrap();
    let file = out.path().join("weather-report.html");
    let shown = out.path().join("shown.txt");
    let shown_env = ("PORTHOLE_E2E_SHOWN".into(), shown.display().to_string());
    let (app, steps) = report_of_a_recorded_task(&file, vec![shown_env]).await;
    let wait = Eventually::new(&app.driver);
    let saved = wait
        .text("share-report-saved", |t| t.contains("weather-report.html"))
        .await
        .expect("the report saved");
    // On Linux the app prints it to PDF too, with WebKit and GTK's file printer.
    assert!(
        saved.contains("and as a PDF, “weather-report.pdf”"),
        "names the PDF beside it: {saved}"
    );
    let pdf = out.path().join("weather-report.pdf");
    assert!(pdf.exists(), "the PDF is beside the web page");
    assert!(
        !saved.contains(&out.path().display().to_string()),
        "its name, not its path: {saved}"
    );
    keep_screenshot(&app, "report-saved").await;
    // "Show the file" shows the report in the file manager.
    wait.element("share-report-show")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    assert_eq!(
        crate::flows::shown_files(&shown).await,
        vec![file.display().to_string()],
        "the report is the file shown"
    );

    let html = std::fs::read_to_string(&file).expect("the file was written");
    assert!(html.contains("Look up the weather in Paris"), "the task");
    assert!(html.contains("data-part=\"answer\""), "the answer");
    assert_eq!(
        html.matches("<img src=\"data:image/jpeg;base64,").count(),
        steps.len(),
        "each step's picture, inside the file"
    );
    // The date and the cost as the window's page words them (Intl): "$0.52" or "< $0.01";
    // "November 26, 2026 at 2:05 PM UTC", in the machine's zone.
    assert!(
        html.contains("data-part=\"cost\">$") || html.contains("data-part=\"cost\">&lt; $0.01"),
        "the cost as the window says it"
    );
    let made = html
        .split("data-part=\"made\">")
        .nth(1)
        .and_then(|rest| rest.split("</dd>").next())
        .expect("when the report was made");
    // Month day, year at time AM/PM zone: six words (Intl may put a narrow space before PM).
    assert!(
        made.contains(", 20")
            && made.contains(" at ")
            && made.split(char::is_whitespace).count() >= 6,
        "a date and time in English words, with its zone: {made}"
    );
    assert!(!html.to_lowercase().contains("<script"), "no script");
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "no address"
    );
    assert!(
        !html.contains("127.0.0.1"),
        "not the Demo's loopback address"
    );
    assert!(!html.contains("/v1/"), "no path of the service");
    // The Demo's key and sign-in token stay in the app: neither's shape is in the file's text
    // (the pictures' base64 set apart, where any three letters may occur by chance).
    let text: String = html
        .split("data:image/jpeg;base64,")
        .map(|part| {
            part.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || "+/=".contains(c))
        })
        .collect();
    assert!(!text.contains(porthole_sim::auth::KEY_PREFIX), "no API key");
    assert!(!text.contains("eyJ"), "no sign-in token (a JWT)");
    app.quit().await;

    // Porthole is closed: the file opens on its own, pictures and all.
    let browser = Browser::open(&file).await.expect("a browser");
    let shown = browser
        .driver
        .execute(
            "return [...document.images].filter(i => i.complete && i.naturalWidth > 0).length",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        shown.json().as_u64(),
        Some(steps.len() as u64),
        "every picture shows"
    );
    let title = browser.driver.title().await.unwrap();
    assert!(title.contains("Look up the weather in Paris"), "{title}");
    browser.screenshot("report-in-a-browser").await.unwrap();
    browser.close().await;

    // A second browser, Chromium, headless: a picture of the page. Then the app's PDF, its
    // text read back.
    let shot = porthole_e2e::screenshot_dir().join("report-in-chromium.png");
    chromium(&[
        "--window-size=1100,1800".into(),
        format!("--screenshot={}", shot.display()),
        format!("file://{}", file.display()),
    ]);
    let png = std::fs::read(&shot).expect("Chromium's picture of the report");
    assert!(png.starts_with(b"\x89PNG"), "a PNG");
    let text = std::process::Command::new("pdftotext")
        .args([pdf.as_os_str(), "-".as_ref()])
        .output()
        .expect("pdftotext (poppler-utils; scripts/setup.sh --e2e installs it)");
    assert!(text.status.success(), "the PDF reads back");
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("Look up the weather in Paris"),
        "the task is in the PDF: {text}"
    );
    // Each step's picture is printed too (`pdfimages -list`: two header lines, then one line
    // an image).
    let images = std::process::Command::new("pdfimages")
        .arg("-list")
        .arg(&pdf)
        .output()
        .expect("pdfimages (poppler-utils)");
    let printed = String::from_utf8_lossy(&images.stdout)
        .lines()
        .count()
        .saturating_sub(2);
    assert!(
        printed >= steps.len(),
        "every step's picture is in the PDF: {printed} of {}",
        steps.len()
    );
    // Its first page as a picture beside the screenshots, to be looked at.
    let page = porthole_e2e::screenshot_dir().join("report-pdf-page");
    let drawn = std::process::Command::new("pdftoppm")
        .args(["-png", "-r", "70", "-f", "1", "-l", "1", "-singlefile"])
        .arg(&pdf)
        .arg(&page)
        .status()
        .expect("pdftoppm (poppler-utils)");
    assert!(drawn.success(), "the PDF's first page is drawn");
    for heading in ["Cost", "Answer", "Steps"] {
        assert!(text.contains(heading), "{heading} is in the PDF: {text}");
    }
    assert!(
        !text.contains("http://") && !text.contains("127.0.0.1"),
        "no address in the PDF either"
    );
}

/// A report made in German: its words German, its date and cost as the German page words
/// them with Intl ("26. November 2026 um 14:05 UTC", "0,05 $"), not the English shapes.
#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_report_made_in_german_says_its_date_and_cost_the_german_way() {
    let out = tempfile::tempdir().unwrap();
    let file = out.path().join("wetter-bericht.html");
    let (app, _) =
        report_of_a_recorded_task(&file, vec![("LC_ALL".into(), "de_DE.UTF-8".into())]).await;
    let wait = Eventually::new(&app.driver);
    wait.text("share-report-saved", |t| t.contains("wetter-bericht.html"))
        .await
        .expect("the report saved");
    app.quit().await;

    let html = std::fs::read_to_string(&file).expect("the file was written");
    let part = |name: &str| {
        html.split(&format!("data-part=\"{name}\">"))
            .nth(1)
            .and_then(|rest| rest.split("</dd>").next())
            .unwrap_or_else(|| panic!("the report's {name}"))
            .to_owned()
    };
    assert!(html.contains("<dt>Kosten</dt>"), "German words");
    let cost = part("cost");
    assert!(
        cost.ends_with("\u{a0}$") && cost.contains(',') && !cost.contains('.'),
        "a sum the German way: {cost}"
    );
    let made = part("made");
    assert!(
        made.contains(" um ") && made.contains(". ") && made.contains(" 20"),
        "a date and time in German words, with its zone: {made}"
    );
    let shot = porthole_e2e::screenshot_dir().join("report-german-in-chromium.png");
    chromium(&[
        "--window-size=1100,700".into(),
        format!("--screenshot={}", shot.display()),
        format!("file://{}", file.display()),
    ]);
}

/// Runs headless Chromium with `args`, failing the test if it cannot.
pub(crate) fn chromium(args: &[String]) {
    let ran = std::process::Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
        ])
        .args(args)
        .output()
        .expect("Chromium (scripts/setup.sh --e2e installs it)");
    assert!(
        ran.status.success(),
        "Chromium: {}",
        String::from_utf8_lossy(&ran.stderr)
    );
}

/// Opens the app (its save dialog answered with `file`, `env` besides), runs a recorded Demo
/// task, opens its steps, presses Share a report and, on the sheet over the service's
/// screenshots, saves it; the steps listed.
async fn report_of_a_recorded_task(
    file: &std::path::Path,
    env: Vec<(String, String)>,
) -> (App, Vec<WebElement>) {
    let (app, steps) = sheet_of_a_recorded_task(file, env).await;
    crate::film_video::save(&app).await;
    (app, steps)
}

/// Opens the app (its save dialog answered with `file`, `env` besides), runs a recorded Demo
/// task, opens its steps and presses Share a report, until the sheet over the service's
/// screenshots shows the first (report_redact.rs hides on it); the steps listed.
pub(crate) async fn sheet_of_a_recorded_task(
    file: &std::path::Path,
    mut env: Vec<(String, String)>,
) -> (App, Vec<WebElement>) {
    env.push((
        "PORTHOLE_E2E_SAVE_AS".into(),
        file.to_string_lossy().into_owned(),
    ));
    let app = App::launch_with(AppOptions {
        env,
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    let steps = recorded_steps(&app).await;
    let wait = Eventually::new(&app.driver);
    wait.element("share-report-save")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    crate::replay::until_image_loaded(&app, "redact-frame", "the sheet shows the screenshots")
        .await;
    (app, steps)
}
