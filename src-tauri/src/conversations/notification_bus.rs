//! Linux: the attention notifications (a card waits, a cap nears), sent and their clicks heard
//! over D-Bus by Porthole itself, so a click counts only when the notification server sent it
//! (security review N6).
//!
//! Hand-written rather than through tauri-plugin-notification: its listener (2.8) subscribes
//! to `ActionInvoked` with a match rule that names no sender, and its callback is not told who
//! sent the signal, so any program on the session bus could claim a click on Approve
//! (`dbus-send --type=signal … ActionInvoked`); notify-rust's `wait_for_action` matches no
//! sender either. Here the signals come through a zbus `Proxy` for the well-known name
//! `org.freedesktop.Notifications`: zbus resolves the name's owner (`GetNameOwner`, then
//! `NameOwnerChanged` when the server restarts), subscribes with that sender, and passes on
//! only signals whose sender is the owner's unique name. The zbus is the plugins' own (5), so
//! no second copy enters the binary. The notifications are sent on the same connection, since
//! some servers (dunst) send a notification's signals only to the connection that sent it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

const NAME: &str = "org.freedesktop.Notifications";
const PATH: &str = "/org/freedesktop/Notifications";

/// The notifications shown, by the server's id, with what each is about.
type Shown<T> = Arc<Mutex<HashMap<u32, T>>>;

pub struct NotificationBus<T> {
    proxy: zbus::blocking::Proxy<'static>,
    shown: Shown<T>,
    /// The program's name, sent as the app name and the icon, as notify-rust does.
    program: String,
}

fn lock<T>(shown: &Mutex<T>) -> MutexGuard<'_, T> {
    shown.lock().unwrap_or_else(|e| e.into_inner())
}

impl<T: Clone + Send + 'static> NotificationBus<T> {
    /// Connects to the session bus and listens to the notification server's signals on a
    /// thread of its own: `on_action(about, action)` runs for a click on a notification this
    /// bus showed (`default` is a click on the notification itself). Blocks on the bus.
    pub fn connect(on_action: impl Fn(T, &str) + Send + 'static) -> zbus::Result<Self> {
        let connection = zbus::blocking::Connection::session()?;
        let proxy: zbus::blocking::Proxy<'static> =
            zbus::blocking::proxy::Builder::new(&connection)
                .destination(NAME)?
                .path(PATH)?
                .interface(NAME)?
                .cache_properties(zbus::proxy::CacheProperties::No)
                .build()?;
        // Subscribed before the first notification is sent, so no click is missed.
        let signals = proxy.receive_all_signals()?;
        let shown: Shown<T> = Arc::default();
        let heard = Arc::clone(&shown);
        std::thread::Builder::new()
            .name("notification-clicks".into())
            .spawn(move || {
                for signal in signals {
                    let header = signal.header();
                    match header.member().map(|m| m.as_str()) {
                        Some("ActionInvoked") => {
                            let Ok((id, action)) = signal.body().deserialize::<(u32, String)>()
                            else {
                                continue;
                            };
                            // Taken out of the lock first: the action may show another
                            // notification.
                            let about = lock(&heard).get(&id).cloned();
                            if let Some(about) = about {
                                on_action(about, &action);
                            }
                        }
                        Some("NotificationClosed") => {
                            if let Ok((id, _reason)) = signal.body().deserialize::<(u32, u32)>() {
                                lock(&heard).remove(&id);
                            }
                        }
                        _ => {}
                    }
                }
            })
            .map_err(|e| zbus::Error::InputOutput(Arc::new(e)))?;
        let program = std::env::current_exe()
            .ok()
            .and_then(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
            .unwrap_or_else(|| "porthole".to_owned());
        Ok(Self {
            proxy,
            shown,
            program,
        })
    }

    /// Shows a notification with `actions` (key and label) besides a click on the
    /// notification itself; a click on it reaches `on_action` with `about`.
    pub fn show(
        &self,
        summary: &str,
        body: &str,
        actions: &[(&str, &str)],
        about: T,
    ) -> zbus::Result<u32> {
        // The Desktop Notifications Specification reports a click on the notification itself
        // as the action `default`, and only for a notification that offers it.
        let mut pairs = vec!["default", ""];
        for (key, label) in actions {
            pairs.extend([*key, *label]);
        }
        let hints: HashMap<&str, zbus::zvariant::Value<'_>> = HashMap::new();
        // Held while the notification is sent, so a click that arrives before its id is
        // known waits for it instead of being missed.
        let mut shown = lock(&self.shown);
        let id: u32 = self.proxy.call(
            "Notify",
            &(
                &self.program,
                0u32,
                &self.program,
                summary,
                body,
                pairs,
                hints,
                -1i32,
            ),
        )?;
        shown.insert(id, about);
        Ok(id)
    }
}
