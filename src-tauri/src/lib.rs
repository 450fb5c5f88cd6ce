//! Porthole, the desktop app: the Tauri shell around the core (`porthole-core`), the client
//! (`porthole-client`) and the Demo (`porthole-sim`). One folder per thing the app does, each
//! with its `commands.rs` of thin adapters; every piece of state the commands reach is
//! registered in [`run`]'s setup, here and nowhere else. `docs/architecture.md` tells a
//! newcomer where to start.

// Where a part is the core's, the shell's folder of the same name holds what needs Tauri (its
// commands, what tells the window), beside the core's items re-exported under the same path.
mod account;
mod attachments;
mod data_folder;
mod film {
    pub use porthole_core::film::*;
    pub mod commands;
    mod recording;
    pub mod unseen;
    pub mod video;
    pub use recording::{Films, Tap};
}
mod connection {
    pub use porthole_core::connection::*;
    pub mod commands;
    pub mod switchboard;
    pub mod switching;
}
mod console {
    pub use porthole_core::console::*;
    pub mod commands;
}
mod conversations {
    pub use porthole_core::conversations::*;
    pub mod attention;
    pub mod commands;
    #[cfg(target_os = "linux")]
    pub mod notification_bus;
    pub mod window;
}
mod inbox {
    pub use porthole_core::inbox::*;
    pub mod commands;
    pub mod window;
}
mod judge {
    pub use porthole_core::judge::*;
    pub mod commands;
}
mod language;
mod layout;
mod live;
mod machines;
mod navigation;
mod replay;
mod report {
    pub use porthole_core::report::*;
    pub mod commands;
    pub mod pdf;
}
mod reusable {
    pub use porthole_core::reusable::*;
    pub mod commands;
}
mod schedules {
    pub use porthole_core::schedules::*;
    pub mod autostart;
    pub mod commands;
    pub mod tray;
    pub mod tray_commands;
    pub mod window;
}
mod search {
    pub use porthole_core::search::*;
    pub mod commands;
}
mod tray;
mod updates;

// The core's modules the shell uses as they are, under the names the shell's own folders use.
use porthole_core::{error, persist, store, test_switch, words};

use tauri::{Manager, WindowEvent};
use tauri_specta::{collect_commands, collect_events, Builder};

pub use error::{Problem, UiAction, UiCode, UiError};

/// Every command and event the page sees; the TypeScript bindings are generated from this.
pub fn specta_builder() -> Builder<tauri::Wry> {
    Builder::<tauri::Wry>::new()
        // One type per shape: the page only reads what Rust sends.
        .disable_serde_phases()
        .commands(collect_commands![
            connection::commands::connection_info,
            connection::commands::connect_account,
            connection::commands::use_demo,
            connection::commands::reset_demo,
            connection::commands::use_account,
            connection::commands::sign_out,
            machines::commands::list_machines,
            machines::commands::wake_machine,
            account::commands::get_account,
            conversations::commands::list_models,
            conversations::commands::list_conversations,
            conversations::commands::current_conversation,
            conversations::commands::conversation_receipts,
            conversations::commands::keep_check,
            conversations::commands::run_next,
            conversations::commands::remove_waiting,
            conversations::commands::new_conversation,
            conversations::commands::delete_conversation,
            conversations::commands::watch_conversation,
            conversations::commands::unwatch_conversation,
            conversations::commands::catch_up_conversation,
            conversations::commands::send_message,
            conversations::commands::retry_send,
            conversations::commands::stop_task,
            conversations::commands::answer_stuck,
            conversations::commands::answer_approval,
            conversations::commands::choose_approval,
            conversations::commands::open_approval_page,
            replay::commands::latest_turn,
            replay::commands::get_recording,
            replay::commands::step_screenshot,
            film::commands::film_settings,
            film::commands::set_film_settings,
            film::commands::list_films,
            film::commands::get_film,
            film::commands::film_frame,
            film::video::film_redactions,
            film::video::save_film_video,
            film::video::show_saved_video,
            judge::commands::get_turn_outcome,
            judge::commands::check_result,
            reusable::commands::draft_reusable,
            reusable::commands::learn_reusable,
            reusable::commands::list_reusable,
            reusable::commands::remove_reusable,
            reusable::commands::run_reusable,
            reusable::commands::report_wrong_result,
            reusable::commands::heal_reusable,
            console::commands::console_state,
            console::commands::console_open,
            console::commands::console_run,
            console::commands::console_interrupt,
            console::commands::console_close,
            console::commands::console_screenshot,
            console::commands::lease_endings,
            account::commands::identity_info,
            account::commands::browser_sign_in_ready,
            account::commands::open_key_portal,
            account::commands::sign_in_with_browser,
            account::commands::cancel_sign_in,
            account::commands::sign_in_with_token,
            account::commands::connect_signed_in,
            account::commands::sign_in_address,
            account::commands::forget_sign_in,
            account::commands::list_keys,
            account::commands::create_key,
            account::commands::use_new_key,
            account::commands::close_new_key,
            account::commands::revoke_key,
            machines::commands::create_computer,
            attachments::commands::pick_files,
            attachments::commands::upload_file,
            conversations::commands::conversation_usage,
            conversations::commands::default_cap,
            conversations::commands::set_default_cap,
            conversations::commands::cap_offer_pending,
            conversations::commands::answer_cap_offer,
            conversations::commands::model_costs,
            conversations::commands::schedule_estimate,
            conversations::commands::raise_cap,
            conversations::commands::keep_cap,
            search::commands::search_history,
            data_folder::commands::stored_data_notices,
            data_folder::commands::show_stored_data_file,
            live::commands::live_open,
            live::commands::live_close,
            live::commands::live_pause,
            live::commands::live_resume,
            live::commands::live_stats,
            live::commands::live_save_snapshot,
            live::commands::live_show_snapshot,
            live::full_screen::live_set_full_screen,
            schedules::commands::list_schedules,
            schedules::commands::create_schedule,
            schedules::commands::set_schedule_cap,
            schedules::commands::delete_schedule,
            schedules::commands::pause_schedule,
            schedules::commands::pause_all_schedules,
            schedules::commands::run_schedule_now,
            schedules::commands::dismiss_schedule_digest,
            schedules::commands::autostart_enabled,
            schedules::commands::set_autostart,
            schedules::tray_commands::tray_next_at,
            schedules::tray_commands::set_tray_times,
            layout::commands::get_layout,
            layout::commands::set_layout,
            language::commands::get_language,
            navigation::first_show::first_screen_ready,
            navigation::start_problem::start_problem,
            navigation::start_problem::quit_after_start_problem,
            language::commands::set_language,
            updates::commands::update_status,
            updates::commands::install_update,
            updates::commands::dismiss_update,
            inbox::commands::get_inbox,
            inbox::commands::dismiss_inbox_item,
            report::commands::report_cost,
            report::commands::report_pictures,
            report::commands::share_report,
            report::commands::open_saved_report,
            report::commands::show_saved_report,
        ])
        // What the person can do about each code; the page words codes from the catalog
        // (`ui-error.ts`).
        .constant("UI_ACTIONS", words::actions_by_code())
        .events(collect_events![
            navigation::events::MachinesChanged,
            navigation::events::ConnectionChanged,
            navigation::events::ConversationsChanged,
            navigation::events::FocusConversation,
            navigation::events::FilesDropped,
            navigation::events::InboxChanged,
            navigation::events::ShowInbox,
            live::status::LiveStatusChanged,
            schedules::window::SchedulesChanged,
            updates::UpdateStatusChanged,
        ])
}

/// Where the generated bindings live, relative to this crate.
pub const BINDINGS_PATH: &str = "../ui/src/lib/bindings.ts";

/// Writes the TypeScript bindings to `path`.
pub fn export_bindings(path: &std::path::Path) -> Result<(), String> {
    specta_builder()
        .export(
            specta_typescript::Typescript::default().header("// Generated from Rust by tauri-specta (src-tauri/src/lib.rs). Do not edit.\n/* eslint-disable */\n// @ts-nocheck"),
            path,
        )
        .map_err(|e| e.to_string())
}

pub fn run() {
    live::renderer::choose_webkit_renderer();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "info,porthole_sim=warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    let builder = specta_builder();
    let handler = builder.invoke_handler();
    let app = tauri::Builder::default()
        .plugin(tauri_plugin_single_instance::init(|app, _args, _cwd| {
            conversations::attention::bring_forward(app);
        }))
        .plugin(
            // Not its visibility: the window is shown when the page is ready
            // (navigation/first_show.rs), never by a restored state before that.
            tauri_plugin_window_state::Builder::default()
                .with_state_flags(
                    tauri_plugin_window_state::StateFlags::all()
                        - tauri_plugin_window_state::StateFlags::VISIBLE,
                )
                .build(),
        )
        .plugin(tauri_plugin_notification::init())
        .plugin(tauri_plugin_opener::init())
        .plugin(tauri_plugin_dialog::init())
        .plugin(tauri_plugin_autostart::init(
            tauri_plugin_autostart::MacosLauncher::LaunchAgent,
            None,
        ))
        .plugin(tauri_plugin_updater::Builder::new().build())
        .invoke_handler(handler)
        .setup(move |app| {
            builder.mount_events(app);
            navigation::create_window(app, "main")?;
            app.manage(navigation::first_show::FirstShow::default());
            navigation::first_show::show_at_the_latest(app.handle());
            live::renderer::keep_webkit_caches_small(app);
            // The person's files are opened after the window exists: when they cannot be,
            // the window says what and where (`navigation::start_problem`).
            match open_state(app) {
                Ok(()) => {
                    app.manage(navigation::start_problem::StartState::default());
                }
                Err(err) => {
                    tracing::error!(error = %err, "Porthole could not open its files");
                    let folder = data_folder::data_dir(app.handle()).ok();
                    let problem =
                        navigation::start_problem::StartProblem::new(folder, err.as_ref());
                    let state = navigation::start_problem::StartState::default();
                    state.set(problem);
                    app.manage(state);
                    navigation::start_problem::show(app.handle());
                }
            }
            Ok(())
        })
        .on_window_event(|window, event| {
            // After a start that could not open the person's files, the window shows only
            // that problem: nothing the handlers below reach was opened.
            let started = window
                .app_handle()
                .try_state::<navigation::start_problem::StartState>()
                .is_some_and(|state| state.get().is_none());
            if started {
                on_window_event(window, event);
            }
        })
        .build(tauri::generate_context!());
    match app {
        Ok(app) => app.run(|app, event| {
            if let tauri::RunEvent::Exit = event {
                // Every change made is on disk before the process ends.
                if let Some(core) = app.try_state::<conversations::Conversations>() {
                    core.store().flush();
                }
                if let Some(board) = app.try_state::<connection::switchboard::Switchboard>() {
                    board.demo.save_now();
                }
                if let (Some(search), Ok(dir)) = (
                    app.try_state::<search::Search>(),
                    data_folder::data_dir(app),
                ) {
                    search.closed(&dir);
                }
            }
        }),
        Err(err) => {
            eprintln!("Porthole could not start: {err}");
            std::process::exit(1);
        }
    }
}

/// Reads the conversations, then opens the search index over them: both off the main thread.
/// Files that cannot be read leave the window saying so, as at the start (N11).
fn load_conversations(
    app: &tauri::AppHandle,
    folder: &std::path::Path,
    core: &conversations::Conversations,
    search: &search::Search,
) {
    if let Err(err) = core.store().load(folder) {
        tracing::error!(error = %err, "Porthole could not read its conversations");
        let problem = navigation::start_problem::StartProblem::new(Some(folder.to_owned()), &err);
        app.state::<navigation::start_problem::StartState>()
            .set(problem);
        navigation::start_problem::show(app);
        return;
    }
    // What waits for the person may be in what was just read: the tray's count follows.
    inbox::window::refresh(app);
    search.open(folder, core);
}

/// What the main window's events do once the app's state is open.
fn on_window_event(window: &tauri::Window, event: &WindowEvent) {
    match event {
        WindowEvent::Focused(focused) => {
            schedules::window::presence_changed(window.app_handle(), *focused);
            if *focused {
                conversations::attention::window_focused(window.app_handle());
            }
        }
        // What was dropped, from the window itself: the page gets tokens for these files,
        // never their paths (attachments/uploads.rs).
        WindowEvent::DragDrop(tauri::DragDropEvent::Drop { paths, .. }) => {
            attachments::commands::offer_dropped(window, paths.clone())
        }
        WindowEvent::CloseRequested { api, .. } => schedules::window::close_requested(window, api),
        _ => {}
    }
}

/// Every piece of state a command or a background task reaches, in one place, opened from the
/// person's files; an error here leaves the window with the start's problem instead.
fn open_state(app: &mut tauri::App) -> Result<(), Box<dyn std::error::Error>> {
    let handle = app.handle().clone();
    // Every piece of state a command or a background task reaches, in one place.
    let connection = connection::Connection::default();
    app.manage(connection.clone());
    let dir = data_folder::data_dir(&handle)?;
    persist::make_private(&dir)?;
    let settings = persist::SettingsStore::open_in(&dir)?;
    // Before anything is worded: the tray, notifications and the page's first words.
    language::speak_chosen(&settings);
    app.manage(settings);
    app.manage(layout::LayoutStore::open(&handle)?);
    let watchers = std::sync::Arc::new(conversations::window::Watchers::default());
    app.manage(watchers.clone());
    let attention = std::sync::Arc::new(conversations::attention::AttentionTarget::default());
    app.manage(attention.clone());
    let window = conversations::window::WindowNotify {
        attention,
        app: handle.clone(),
        watchers,
    };
    // The conversations are read after the first screen, on a thread of their own (security
    // review N10): until then the list says it is loading, and whatever needs them waits.
    let core = conversations::Conversations::new(
        connection.clone(),
        persist::ConversationStore::loading(),
        conversations::usage::UsageStore::open_in(&dir)?,
        std::sync::Arc::new(window),
    );
    let search = search::Search::opening();
    app.manage(search.clone());
    let (loader, folder, loaded) = (handle.clone(), dir.clone(), core.clone());
    std::thread::spawn(move || load_conversations(&loader, &folder, &loaded, &search));
    app.manage(core.clone());
    let switchboard =
        connection::switchboard::Switchboard::new(&handle, connection.clone(), core.clone())
            .keeping_demo_in(&dir);
    app.manage(switchboard.clone());
    app.manage(console::Console {
        connection: connection.clone(),
        consoles: switchboard.consoles.clone(),
    });
    app.manage(machines::Machines {
        app: handle.clone(),
        connection: connection.clone(),
        starting: switchboard.starting.clone(),
    });
    schedules::window::start(&handle, connection, core)?;
    app.manage(schedules::tray_words::TrayWords::default());
    app.manage(attachments::uploads::OfferedFiles::default());
    app.manage(reusable::library::Library::open_in(&dir)?);
    app.manage(live::LiveViews::default());
    app.manage(film::Films::new(film::Shelf::in_data_dir(&dir)));
    app.manage(live::full_screen::CoveredByHand::default());
    app.manage(updates::Updates::default());
    updates::start(&handle);
    app.manage(inbox::Inbox::open_in(&dir));
    app.manage(report::commands::LastReport::default());
    app.manage(live::snapshot::LastSnapshot::default());
    app.manage(film::video::LastVideo::default());
    tray::create(&handle);
    tauri::async_runtime::spawn(async move { connection::switching::start(&switchboard).await });
    Ok(())
}

#[cfg(test)]
mod bindings_tests {
    /// The committed bindings must match the Rust types: regenerate with
    /// `cargo run -p porthole --example export-bindings` when this fails.
    #[test]
    fn typescript_bindings_are_up_to_date() {
        let dir = tempfile::tempdir().expect("temp dir");
        let fresh = dir.path().join("bindings.ts");
        super::export_bindings(&fresh).expect("export");
        let fresh = std::fs::read_to_string(fresh).expect("read fresh");
        let committed_path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(super::BINDINGS_PATH);
        let committed = std::fs::read_to_string(&committed_path).unwrap_or_default();
        assert!(
            fresh == committed,
            "ui/src/lib/bindings.ts is stale: run `cargo run -p porthole --example export-bindings`"
        );
    }
}
