//! The report's HTML. maud escapes every value put into the page, so nothing the agent wrote
//! (a step's code, an answer with `<script>` in it) can become markup. The style is inline and
//! there is no script: the file opens the same in any browser, offline, and prints to PDF.

use maud::{html, Markup, PreEscaped, DOCTYPE};

use super::{Report, ReportFrame, ReportStep, SaidReceipt, Source};
use crate::receipt::ReceiptOutcome;
use crate::words::report as words;

/// The answer as the window shows it: a structured output (JSON) as it is, set in monospace;
/// words from their Markdown, so `**Paris: 21 °C**` reads in bold, not with its stars.
fn answer_markup(answer: &str) -> Markup {
    let trimmed = answer.trim_start();
    let is_data = (trimmed.starts_with('{') || trimmed.starts_with('['))
        && serde_json::from_str::<serde_json::Value>(answer).is_ok();
    if is_data {
        return html! { pre.data { (answer) } };
    }
    PreEscaped(markdown(answer))
}

/// Markdown made HTML with nothing of it able to act: HTML written in it is shown as text,
/// an image is its description (the page fetches nothing), and a link is its words with its
/// web address after them in brackets (the page opens nothing; a printed PDF keeps where it
/// pointed). Every word is escaped by pulldown-cmark.
fn markdown(text: &str) -> String {
    use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd};
    let mut links: Vec<CowStr> = Vec::new();
    let events = Parser::new_ext(text, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH)
        .filter_map(|event| match event {
            Event::Html(raw) | Event::InlineHtml(raw) => Some(Event::Text(raw)),
            Event::Start(Tag::Image { .. }) | Event::End(TagEnd::Image) => None,
            Event::Start(Tag::Link { dest_url, .. }) => {
                links.push(dest_url);
                None
            }
            Event::End(TagEnd::Link) => {
                let url = links.pop()?;
                let web = url.starts_with("https://") || url.starts_with("http://");
                web.then(|| Event::Text(format!(" ({url})").into()))
            }
            other => Some(other),
        });
    let mut out = String::new();
    pulldown_cmark::html::push_html(&mut out, events);
    out
}

/// The whole page.
pub fn html(report: &Report) -> String {
    let page = html! {
        (DOCTYPE)
        html lang=(words::lang()) {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                // Nothing may be fetched from anywhere, even if a value slipped through.
                meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'";
                title { (words::tab_title(&short(&report.task))) }
                style { (PreEscaped(STYLE)) }
            }
            body {
                header {
                    p.kicker { (words::kicker()) }
                    h1 data-part="task" { (report.task) }
                    // It opens with the receipt, as the task does in the thread.
                    @if let Some(receipt) = &report.receipt {
                        (receipt_html(receipt))
                    }
                    dl.facts {
                        dt { (words::computer()) } dd { (report.computer) }
                        dt { (words::outcome()) } dd data-part="outcome" { (report.outcome) }
                        dt { (words::cost()) } dd data-part="cost" { (report.cost) }
                        // Counted as the Steps sheet and "How I did it" count: the final screen is no step.
                        dt { (words::steps()) } dd { (step_count(report)) }
                        @if let Some(made_at) = &report.made_at {
                            dt { (words::made()) } dd data-part="made" { (made_at) }
                        }
                    }
                }
                section {
                    h2 { (words::answer()) }
                    @match &report.answer {
                        Some(answer) => { div.answer data-part="answer" { (answer_markup(answer)) } },
                        None => { p.muted { (words::no_answer()) } },
                    }
                }
                @if !report.checks.is_empty() {
                    section {
                        h2 { (words::checks()) }
                        ul.checks {
                            @for check in &report.checks {
                                li data-part="check" {
                                    span class=(if check.passed { "mark pass" } else { "mark fail" }) {
                                        (if check.passed { words::passed() } else { words::not_met() })
                                    }
                                    " " strong { (check.name) }
                                    @if let Some(evidence) = &check.evidence {
                                        p.muted { (evidence) }
                                    }
                                }
                            }
                        }
                    }
                }
                section data-part="timeline" data-source=(match report.source {
                    Some(Source::Service) => "service",
                    Some(Source::Film) => "film",
                    None => "none",
                }) {
                    h2 { (words::steps()) }
                    @match report.source {
                        Some(Source::Service) => {
                            p.muted data-part="source" { (words::from_service()) }
                            @if report.steps.is_empty() { p.muted { (words::no_steps()) } }
                            @for step in &report.steps { (step_html(step)) }
                        },
                        Some(Source::Film) => {
                            p.muted data-part="source" { (words::from_film()) }
                            @for frame in &report.frames { (frame_html(frame)) }
                        },
                        None => {
                            p.muted { (if report.by_turn { words::not_recorded() } else { words::no_film() }) }
                        },
                    }
                }
                footer.muted {
                    (words::footer())
                }
            }
        }
    };
    page.into_string()
}

/// Counted as the Steps sheet and "How I did it" count: the service's final screen is no
/// step; in a film, the steps it announced (a short step may have no frame of its own).
fn step_count(report: &Report) -> usize {
    match report.source {
        Some(Source::Film) => report
            .frames
            .iter()
            .filter_map(|f| f.step)
            .max()
            .unwrap_or(0) as usize,
        _ => report.steps.iter().filter(|s| s.number.is_some()).count(),
    }
}

/// The receipt as the thread's card says it: the outcome and why, how it was told, what it
/// touched, what it took and cost.
fn receipt_html(receipt: &SaidReceipt) -> Markup {
    let kind = match receipt.outcome {
        ReceiptOutcome::Done => "done",
        ReceiptOutcome::NotDone => "notDone",
        ReceiptOutcome::Partly => "partly",
    };
    html! {
        section.receipt data-part="receipt" data-outcome=(kind) aria-label=(words::receipt()) {
            p.head {
                strong class=(format!("outcome {kind}")) data-part="receipt-outcome" { (receipt.outcome_words) }
                @if let Some(why) = &receipt.why { " " span data-part="receipt-why" { (why) } }
            }
            p.muted data-part="receipt-judged" { (receipt.judged) }
            p.muted { (words::touched()) }
            @if receipt.touched.is_empty() {
                p.muted { (words::touched_none()) }
            } @else {
                ul data-part="receipt-touched" { @for line in &receipt.touched { li { (line) } } }
            }
            @if !receipt.figures.is_empty() {
                p.muted data-part="receipt-figures" { (receipt.figures.join(" · ")) }
            }
        }
    }
}

/// A frame of Porthole's film: its step and caption, its time, its picture.
fn frame_html(frame: &ReportFrame) -> Markup {
    let time = super::timeline::clock(frame.at_ms);
    html! {
        article.step data-part="frame" data-step=[frame.step] {
            h3 {
                @if let Some(step) = frame.step { span.num { (step) } " " }
                @if let Some(title) = &frame.title { (title) " " }
                span.muted { (time) }
            }
            @if let Some(narration) = &frame.narration { p { (narration) } }
            img src=(frame.picture) alt=(words::frame_at(&time));
        }
    }
}

fn step_html(step: &ReportStep) -> Markup {
    html! {
        article.step data-part="step" {
            @match step.number {
                Some(number) => {
                    h3 { span.num { (number) } " " (if step.title.is_empty() { words::untitled_step() } else { step.title.clone() }) }
                },
                None => { h3 { (words::final_screen()) } },
            }
            @if !step.rationale.is_empty() {
                p { (step.rationale) }
            }
            @if let Some(error) = &step.error {
                p.error { (words::step_went_wrong()) (error) }
            }
            @if !step.code.is_empty() {
                details {
                    summary { (words::what_the_agent_did()) }
                    pre { code { (step.code) } }
                }
            }
            @match &step.screenshot {
                Some(uri) => {
                    img src=(uri) alt=(match step.number {
                        Some(number) => words::screen_at(number),
                        None => words::final_screen(),
                    });
                },
                None => { p.muted { (words::no_screenshot()) } },
            }
        }
    }
}

/// The task's first line, short enough for a tab's title.
fn short(task: &str) -> String {
    let line = task.lines().next().unwrap_or("").trim();
    let mut short: String = line.chars().take(80).collect();
    if line.chars().count() > 80 {
        short.push('…');
    }
    short
}

const STYLE: &str = "
:root { color-scheme: light dark; --muted: #5b6472; --line: #d9dee7; --pass: #1a7f37; --fail: #b42318; --warn: #9a6700; }
@media (prefers-color-scheme: dark) { :root { --muted: #a4adbb; --line: #3a404a; --pass: #4ac26b; --fail: #ff7b72; --warn: #d29922; } }
body { font: 16px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; max-width: 900px; margin: 0 auto; padding: 32px 20px; }
h1 { font-size: 24px; margin: 4px 0 16px; white-space: pre-wrap; overflow-wrap: anywhere; }
h2 { font-size: 18px; margin: 28px 0 10px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 16px; margin: 0 0 6px; }
.kicker { text-transform: uppercase; letter-spacing: .06em; font-size: 12px; color: var(--muted); margin: 0; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0; }
.facts dt { color: var(--muted); } .facts dd { margin: 0; }
.answer { overflow-wrap: anywhere; border: 1px solid var(--line); border-radius: 8px; padding: 2px 14px; }
.answer pre.data { white-space: pre-wrap; }
.muted { color: var(--muted); }
.checks { list-style: none; padding: 0; display: grid; gap: 8px; }
.mark { font-size: 12px; font-weight: 600; padding: 1px 8px; border-radius: 999px; border: 1px solid currentColor; }
.pass { color: var(--pass); } .fail { color: var(--fail); }
.step { border: 1px solid var(--line); border-radius: 10px; padding: 14px; margin: 0 0 14px; break-inside: avoid; }
.num { display: inline-block; min-width: 1.6em; text-align: center; border-radius: 999px; background: var(--line); font-size: 13px; }
.step img { display: block; max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 6px; margin-top: 8px; }
.error { color: var(--fail); }
.receipt { border: 1px solid var(--line); border-radius: 10px; padding: 10px 14px; margin: 0 0 16px; display: grid; gap: 4px; }
.receipt p { margin: 0; } .receipt ul { margin: 0; padding-left: 20px; }
.outcome { padding: 0 8px; border-radius: 999px; border: 1px solid currentColor; }
.outcome.done { color: var(--pass); } .outcome.notDone { color: var(--fail); } .outcome.partly { color: var(--warn); }
pre { white-space: pre-wrap; overflow-wrap: anywhere; font: 13px/1.4 ui-monospace, 'DejaVu Sans Mono', monospace; }
footer { margin-top: 32px; font-size: 13px; }
@media print { body { padding: 0; } details { display: block; } h2 { break-after: avoid; } }
";
