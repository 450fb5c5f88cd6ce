//! The tray menu: its entries, in order, and what each does. To add an entry, give it an id,
//! put it in [`build`] where it belongs, and say in [`clicked`] what it does.

use tauri::menu::{Menu, MenuItem, PredefinedMenuItem};
use tauri::{AppHandle, Wry};
use tauri_specta::Event;

use crate::events::ShowInbox;

const OPEN: &str = "open";
const INBOX: &str = "inbox";
const QUIT: &str = "quit";
const NEXT_RUN: &str = "next-run";
const PAUSE_SCHEDULES: &str = "pause-schedules";

/// "Nothing needs you", "1 thing needs you", "3 things need you".
pub fn count_words(count: u32) -> String {
    match count {
        0 => "nothing needs you".to_owned(),
        1 => "1 thing needs you".to_owned(),
        n => format!("{n} things need you"),
    }
}

pub fn build(app: &AppHandle, count: u32) -> tauri::Result<Menu<Wry>> {
    let open = MenuItem::with_id(app, OPEN, "Open Porthole", true, None::<&str>)?;
    let mut needs = count_words(count);
    if let Some(first) = needs.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    let inbox = MenuItem::with_id(app, INBOX, needs, count > 0, None::<&str>)?;
    let quit = MenuItem::with_id(app, QUIT, "Quit Porthole", true, None::<&str>)?;
    let menu = Menu::with_items(app, &[&open, &inbox])?;
    // The schedules' lines, when there are schedules: what runs next, and Pause all.
    if let Some(lines) = crate::schedules::tray::lines(app) {
        let pause = if lines.all_paused {
            "Resume schedules"
        } else {
            "Pause all schedules"
        };
        menu.append(&PredefinedMenuItem::separator(app)?)?;
        menu.append(&MenuItem::with_id(
            app,
            NEXT_RUN,
            lines.next,
            true,
            None::<&str>,
        )?)?;
        menu.append(&MenuItem::with_id(
            app,
            PAUSE_SCHEDULES,
            pause,
            true,
            None::<&str>,
        )?)?;
    }
    menu.append(&PredefinedMenuItem::separator(app)?)?;
    menu.append(&quit)?;
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
    #[test]
    fn the_count_reads_as_words() {
        assert_eq!(super::count_words(0), "nothing needs you");
        assert_eq!(super::count_words(1), "1 thing needs you");
        assert_eq!(super::count_words(4), "4 things need you");
    }
}
