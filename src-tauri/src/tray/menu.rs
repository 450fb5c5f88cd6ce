//! The tray menu: its entries, in order, and what each does. To add an entry, give it an id,
//! put it in [`build`] where it belongs, and say in [`clicked`] what it does.

use tauri::menu::{Menu, MenuItem, PredefinedMenuItem};
use tauri::{AppHandle, Wry};
use tauri_specta::Event;

use crate::navigation::events::ShowInbox;
use crate::schedules::tray_lines::TrayLines;
use crate::words::tray as words;

const OPEN: &str = "open";
const INBOX: &str = "inbox";
const QUIT: &str = "quit";
const NEXT_RUN: &str = "next-run";
const PAUSE_SCHEDULES: &str = "pause-schedules";

/// "nothing needs you", "1 thing needs you", "3 things need you".
pub fn count_words(count: u32) -> String {
    words::needs_you(count)
}

/// One line of the tray menu, as [`entries`] lists them and [`build`] makes them.
#[derive(Debug, Clone, PartialEq)]
pub enum Entry {
    Item {
        id: &'static str,
        label: String,
        enabled: bool,
    },
    Separator,
}

fn item(id: &'static str, label: impl Into<String>, enabled: bool) -> Entry {
    Entry::Item {
        id,
        label: label.into(),
        enabled,
    }
}

/// The menu's lines, in order, for `count` things needing the person and the schedules'
/// lines (none when there is no schedule): open, what needs you, what runs next and pause
/// all, quit.
pub fn entries(count: u32, schedules: Option<&TrayLines>) -> Vec<Entry> {
    let mut needs = count_words(count);
    if let Some(first) = needs.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    let mut lines = vec![
        item(OPEN, words::open(), true),
        item(INBOX, needs, count > 0),
    ];
    if let Some(schedules) = schedules {
        let pause = if schedules.all_paused {
            words::resume_schedules()
        } else {
            words::pause_all_schedules()
        };
        lines.push(Entry::Separator);
        lines.push(item(NEXT_RUN, schedules.next.clone(), true));
        lines.push(item(PAUSE_SCHEDULES, pause, true));
    }
    lines.push(Entry::Separator);
    lines.push(item(QUIT, words::quit(), true));
    lines
}

pub fn build(app: &AppHandle, count: u32) -> tauri::Result<Menu<Wry>> {
    let schedules = crate::schedules::tray::lines(app);
    let menu = Menu::new(app)?;
    for entry in entries(count, schedules.as_ref()) {
        match entry {
            Entry::Item { id, label, enabled } => {
                menu.append(&MenuItem::with_id(app, id, label, enabled, None::<&str>)?)?
            }
            Entry::Separator => menu.append(&PredefinedMenuItem::separator(app)?)?,
        }
    }
    Ok(menu)
}

pub fn clicked(app: &AppHandle, id: &str) {
    match id {
        OPEN => super::show_window(app),
        INBOX => {
            super::show_window(app);
            let _ = ShowInbox.emit(app);
        }
        NEXT_RUN => super::show_window(app),
        PAUSE_SCHEDULES => crate::schedules::tray::toggle_pause(app),
        QUIT => app.exit(0),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(entries: &[Entry]) -> Vec<String> {
        entries
            .iter()
            .map(|e| match e {
                Entry::Item { label, enabled, .. } if !enabled => format!("({label})"),
                Entry::Item { label, .. } => label.clone(),
                Entry::Separator => "—".to_owned(),
            })
            .collect()
    }

    #[test]
    fn the_menu_opens_says_what_needs_you_and_quits_and_has_the_schedules_lines_when_there_are_some(
    ) {
        assert_eq!(
            labels(&entries(0, None)),
            ["Open Porthole", "(Nothing needs you)", "—", "Quit Porthole"]
        );
        let lines = TrayLines {
            next: "Next: Check the weather at 14:00".into(),
            all_paused: false,
        };
        assert_eq!(
            labels(&entries(2, Some(&lines))),
            [
                "Open Porthole",
                "2 things need you",
                "—",
                "Next: Check the weather at 14:00",
                "Pause all schedules",
                "—",
                "Quit Porthole"
            ]
        );
        let paused = TrayLines {
            next: "Schedules are paused".into(),
            all_paused: true,
        };
        let menu = entries(1, Some(&paused));
        assert_eq!(labels(&menu)[4], "Resume schedules");
        // Each line is one of the ids `clicked` answers.
        let ids: Vec<&str> = menu
            .iter()
            .filter_map(|e| match e {
                Entry::Item { id, .. } => Some(*id),
                Entry::Separator => None,
            })
            .collect();
        assert_eq!(ids, [OPEN, INBOX, NEXT_RUN, PAUSE_SCHEDULES, QUIT]);
    }

    #[test]
    fn the_count_reads_as_words() {
        assert_eq!(super::count_words(0), "nothing needs you");
        assert_eq!(super::count_words(1), "1 thing needs you");
        assert_eq!(super::count_words(4), "4 things need you");
    }
}
