//! A test-only drag source: a small window whose only widget offers the files named on its
//! command line as `text/uri-list`, the way a file manager does. The drop test presses on it
//! and moves the pointer with `xdotool`, so the app receives a real X drag and drop (XDND);
//! Debian has no ready-made drag source to run under Xvfb.
//!
//! Usage: `drag-source X Y FILE...` puts the window's top-left corner at (X, Y) (there is no
//! window manager under Xvfb to move it) and prints `ready` once it is on screen. It exits
//! when the drag ends, or after a minute so a failed test never leaves it behind.

use std::time::Duration;

use gtk::prelude::*;
use gtk::{gdk, glib};

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(x), Some(y)) = (
        args.next().and_then(|a| a.parse::<i32>().ok()),
        args.next().and_then(|a| a.parse::<i32>().ok()),
    ) else {
        eprintln!("usage: drag-source X Y FILE...");
        std::process::exit(2);
    };
    let uris: Vec<String> = args.filter_map(|path| file_uri(&path)).collect();
    if let Err(e) = gtk::init() {
        eprintln!("drag-source: no display: {e}");
        std::process::exit(1);
    }

    let window = gtk::Window::new(gtk::WindowType::Toplevel);
    window.set_title("drag source");
    window.set_default_size(140, 90);
    window.move_(x, y);
    // A label has no X window of its own to receive the button press; an event box does.
    let handle = gtk::EventBox::new();
    handle.add(&gtk::Label::new(Some("Drag these files")));
    let targets = [gtk::TargetEntry::new(
        "text/uri-list",
        gtk::TargetFlags::OTHER_APP,
        0,
    )];
    handle.drag_source_set(
        gdk::ModifierType::BUTTON1_MASK,
        &targets,
        gdk::DragAction::COPY,
    );
    handle.connect_drag_data_get(move |_, _, data, _, _| {
        let uris: Vec<&str> = uris.iter().map(String::as_str).collect();
        data.set_uris(&uris);
    });
    // Let the target finish reading the data before going away.
    handle.connect_drag_end(|_, _| {
        glib::timeout_add_local_once(Duration::from_millis(500), gtk::main_quit);
    });
    window.add(&handle);
    window.connect_map_event(|_, _| {
        println!("ready");
        glib::Propagation::Proceed
    });
    window.connect_delete_event(|_, _| {
        gtk::main_quit();
        glib::Propagation::Proceed
    });
    glib::timeout_add_local_once(Duration::from_secs(60), gtk::main_quit);
    window.show_all();
    gtk::main();
}

/// `file:///…` with the path percent-encoded, as a file manager offers it.
fn file_uri(path: &str) -> Option<String> {
    let absolute = std::path::absolute(path).ok()?;
    glib::filename_to_uri(absolute, None)
        .ok()
        .map(|u| u.to_string())
}
