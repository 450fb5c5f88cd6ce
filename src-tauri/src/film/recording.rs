//! Recording a task's film while its computer's live view is open: the view's bridge feeds
//! each decoded frame to a [`Tap`] (a copy of its pixels into the one screen kept, under a
//! lock held for that copy only), and a thread of its own asks the core's
//! [`Recorder`](super::Recorder) about once every 200 ms whether to keep a picture, then
//! downscales, encodes and writes it there: never on the UI thread, nor on the bridge's.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tauri::{AppHandle, Manager};

use super::{encode_picture, Moment, Paint, Recorder, Screen, Shelf};
use crate::conversations::Conversations;
use crate::persist::SettingsStore;

/// How often the recorder looks at the task: often enough that a step's picture is taken
/// within a fifth of a second of the step being announced.
const LOOK_EVERY: Duration = Duration::from_millis(200);

/// The films of this app (registered in the app's setup).
pub struct Films {
    pub shelf: Shelf,
    /// The films being written now, which the total bound leaves alone.
    recording: Mutex<Vec<PathBuf>>,
}

impl Films {
    pub fn new(shelf: Shelf) -> Self {
        Self {
            shelf,
            recording: Mutex::default(),
        }
    }

    fn recording(&self) -> std::sync::MutexGuard<'_, Vec<PathBuf>> {
        self.recording.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn keep_within_total(&self, total: u64) {
        let recording = self.recording().clone();
        if let Err(e) = self.shelf.keep_within(total, &recording) {
            tracing::warn!(error = %e, "old films could not be removed");
        }
    }
}

/// One live view's feed into the film; recording stops when the last clone is dropped.
#[derive(Clone)]
pub struct Tap {
    inner: Arc<TapInner>,
}

struct TapInner {
    screen: Arc<Mutex<Screen>>,
    stop: Arc<AtomicBool>,
}

impl Drop for TapInner {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl Tap {
    /// Starts recording the tasks of `machine_id` (under the service `scope`), or `None` when
    /// the person turned recording off.
    pub fn start(app: &AppHandle, scope: String, machine_id: String) -> Option<Self> {
        let settings = app.try_state::<SettingsStore>()?.get().film;
        if !settings.record {
            return None;
        }
        app.try_state::<Films>()?;
        let screen = Arc::new(Mutex::new(Screen::default()));
        let stop = Arc::new(AtomicBool::new(false));
        let watcher = Watcher {
            app: app.clone(),
            scope,
            machine_id,
            screen: screen.clone(),
            stop: stop.clone(),
        };
        std::thread::Builder::new()
            .name("film".into())
            .spawn(move || watcher.run())
            .ok()?;
        Some(Self {
            inner: Arc::new(TapInner { screen, stop }),
        })
    }

    /// Puts one frame's drawing on the screen kept.
    pub fn feed<'a>(&self, ops: impl Iterator<Item = Paint<'a>>) {
        let mut screen = self.inner.screen.lock().unwrap_or_else(|e| e.into_inner());
        for op in ops {
            screen.paint(op);
        }
    }

    /// A new connection: the stream draws its screen afresh.
    pub fn connected(&self) {
        self.inner
            .screen
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .reset();
    }
}

/// The recording thread of one view.
struct Watcher {
    app: AppHandle,
    scope: String,
    machine_id: String,
    screen: Arc<Mutex<Screen>>,
    stop: Arc<AtomicBool>,
}

/// What the recorder needs of the computer's current conversation.
struct Now {
    conversation_id: String,
    running: bool,
    moment: Moment,
}

impl Watcher {
    fn run(self) {
        let films = self.app.state::<Films>();
        let mut film: Option<(String, Recorder)> = None;
        let mut last_moment = Moment::default();
        while !self.stop.load(Ordering::Relaxed) {
            std::thread::sleep(LOOK_EVERY);
            let now = self.now();
            let running = now.as_ref().filter(|n| n.running);
            // The task ended, or another conversation's began: its film is over.
            if film
                .as_ref()
                .is_some_and(|(id, _)| running.is_none_or(|n| n.conversation_id != *id))
            {
                let moment = now
                    .as_ref()
                    .map_or(last_moment.clone(), |n| n.moment.clone());
                self.finish(&films, film.take(), &moment);
            }
            let Some(now) = running else { continue };
            let settings = self.app.state::<SettingsStore>().get().film;
            if film.is_none() {
                match Recorder::start(
                    films.shelf.root(),
                    &now.conversation_id,
                    unix_ms(),
                    settings.per_task_bytes(),
                ) {
                    Ok(recorder) => {
                        films.recording().push(recorder.dir().to_owned());
                        films.keep_within_total(settings.total_bytes());
                        film = Some((now.conversation_id.clone(), recorder));
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "a film could not be started");
                        continue;
                    }
                }
            }
            let Some((_, recorder)) = film.as_mut() else {
                continue;
            };
            let screen = &self.screen;
            let offered = recorder.offer(unix_ms(), &now.moment, || {
                // The lock is held for a copy of the pixels only.
                let (width, height, rgb) =
                    screen.lock().unwrap_or_else(|e| e.into_inner()).picture()?;
                encode_picture(width, height, rgb)
            });
            if let Err(e) = offered {
                tracing::warn!(error = %e, "a film's picture could not be written");
                self.finish(&films, film.take(), &now.moment);
            }
            last_moment = now.moment.clone();
        }
        self.finish(&films, film, &last_moment);
    }

    fn now(&self) -> Option<Now> {
        let conversations = self.app.try_state::<Conversations>()?;
        conversations.store().read(|book| {
            book.current(&self.scope, &self.machine_id).map(|c| Now {
                conversation_id: c.id.clone(),
                running: c.status.is_active(),
                moment: Moment::of(c),
            })
        })
    }

    fn finish(&self, films: &Films, film: Option<(String, Recorder)>, moment: &Moment) {
        let Some((_, recorder)) = film else { return };
        let dir = recorder.dir().to_owned();
        if let Err(e) = recorder.finish(moment) {
            tracing::warn!(error = %e, "a film's last frame could not be written");
        }
        films.recording().retain(|d| *d != dir);
        let total = self.app.state::<SettingsStore>().get().film.total_bytes();
        films.keep_within_total(total);
    }
}

fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}
