//! Recording a task's film while its computer's live view is open: the view's bridge feeds
//! each decoded frame to a [`Tap`] (a copy of its pixels into the one screen kept, under a
//! lock held for that copy only), and a thread of its own asks the core's
//! [`Recorder`](super::Recorder) whether to keep a picture, then downscales, encodes and writes
//! it there: never on the UI thread, nor on the bridge's, and at a lower priority than both
//! (on Linux), so on a machine with no core to spare the live view goes first. It asks at every change of a
//! conversation (so each step the stream announces is seen as it comes, however loaded the
//! machine) and at least every 200 ms (for the picture a second).

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, Weak};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tauri::{AppHandle, Manager};

use super::{encode_picture, Moment, Paint, Recorder, Screen, Shelf, PICTURE_MAX_WIDTH};
use crate::conversations::{Conversations, ThreadItem};
use crate::persist::SettingsStore;

/// How long the recorder waits for news of a conversation before it looks at the task anyway.
const LOOK_EVERY: Duration = Duration::from_millis(200);

/// The films of this app (registered in the app's setup).
pub struct Films {
    pub shelf: Shelf,
    /// The films being written now, which the total bound leaves alone.
    recording: Mutex<Vec<PathBuf>>,
    /// How many times a conversation changed: the recorders wait on it.
    news: (Mutex<u64>, Condvar),
    /// The film of each computer being recorded (by scope and computer): one a computer,
    /// whoever feeds it (open views, or a connection of its own).
    taps: Mutex<HashMap<(String, String), Weak<TapInner>>>,
    /// The computers recorded through a connection of the film's own (`unseen.rs`).
    unseen: Mutex<HashSet<(String, String)>>,
}

impl Films {
    pub fn new(shelf: Shelf) -> Self {
        Self {
            shelf,
            recording: Mutex::default(),
            news: Default::default(),
            taps: Mutex::default(),
            unseen: Mutex::default(),
        }
    }

    /// The film of `machine_id` being recorded, if any.
    pub fn tap_of(&self, scope: &str, machine_id: &str) -> Option<Tap> {
        let taps = self.taps.lock().unwrap_or_else(|e| e.into_inner());
        let inner = taps.get(&(scope.to_owned(), machine_id.to_owned()))?;
        inner.upgrade().map(|inner| Tap { inner })
    }

    /// Marks `machine_id` as recorded through a connection of the film's own; false when it
    /// already is.
    pub fn begin_unseen(&self, scope: &str, machine_id: &str) -> bool {
        let mut unseen = self.unseen.lock().unwrap_or_else(|e| e.into_inner());
        unseen.insert((scope.to_owned(), machine_id.to_owned()))
    }

    pub fn end_unseen(&self, scope: &str, machine_id: &str) {
        let mut unseen = self.unseen.lock().unwrap_or_else(|e| e.into_inner());
        unseen.remove(&(scope.to_owned(), machine_id.to_owned()));
    }

    /// A conversation changed (a step announced, a task ended): the recorders look now.
    pub fn conversation_changed(&self) {
        *self.news.0.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        self.news.1.notify_all();
    }

    /// Waits until a conversation changes after `seen` (or `LOOK_EVERY` has passed); returns
    /// the changes counted so far.
    fn wait_for_news(&self, seen: u64) -> u64 {
        let count = self.news.0.lock().unwrap_or_else(|e| e.into_inner());
        let (count, _) = self
            .news
            .1
            .wait_timeout_while(count, LOOK_EVERY, |count| *count == seen)
            .unwrap_or_else(|e| e.into_inner());
        *count
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

/// One computer's feed into its film (from its open live views, or a connection of the film's
/// own); recording stops when the last clone is dropped.
#[derive(Clone)]
pub struct Tap {
    inner: Arc<TapInner>,
}

struct TapInner {
    screen: Arc<Mutex<Screen>>,
    stop: Arc<AtomicBool>,
    /// Open live views feeding it.
    views: AtomicUsize,
}

/// An open live view's hold on its computer's film ([`Tap::watch`]).
pub struct Watching(Tap);

impl Drop for Watching {
    fn drop(&mut self) {
        self.0.inner.views.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Drop for TapInner {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl Tap {
    /// The film of `machine_id`'s tasks (under the service `scope`): the one being recorded,
    /// else a new one; `None` when the person turned recording off.
    pub fn start(app: &AppHandle, scope: String, machine_id: String) -> Option<Self> {
        let settings = app.try_state::<SettingsStore>()?.get().film;
        if !settings.record {
            return None;
        }
        let films = app.try_state::<Films>()?;
        let mut taps = films.taps.lock().unwrap_or_else(|e| e.into_inner());
        taps.retain(|_, tap| tap.strong_count() > 0);
        let key = (scope.clone(), machine_id.clone());
        if let Some(inner) = taps.get(&key).and_then(Weak::upgrade) {
            return Some(Self { inner });
        }
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
            .spawn(move || {
                lower_priority();
                watcher.run()
            })
            .ok()?;
        let inner = Arc::new(TapInner {
            screen,
            stop,
            views: AtomicUsize::new(0),
        });
        taps.insert(key, Arc::downgrade(&inner));
        Some(Self { inner })
    }

    /// An open live view feeds the film while the hold lives.
    pub fn watch(&self) -> Watching {
        self.inner.views.fetch_add(1, Ordering::Relaxed);
        Watching(self.clone())
    }

    /// Whether an open live view feeds the film.
    pub fn watched(&self) -> bool {
        self.inner.views.load(Ordering::Relaxed) > 0
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
    /// The conversation, and where its task begins in it (the message that started it): a
    /// task that starts right as the last ended is a film of its own.
    task: (String, usize),
    running: bool,
    moment: Moment,
}

impl Watcher {
    fn run(self) {
        let films = self.app.state::<Films>();
        let mut film: Option<((String, usize), Recorder)> = None;
        let mut last_moment = Moment::default();
        let mut news = 0;
        while !self.stop.load(Ordering::Relaxed) {
            news = films.wait_for_news(news);
            let now = self.now();
            let running = now.as_ref().filter(|n| n.running);
            // The task ended, or another conversation's began: its film is over.
            if film
                .as_ref()
                .is_some_and(|(task, _)| running.is_none_or(|n| n.task != *task))
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
                    &now.task.0,
                    unix_ms(),
                    settings.per_task_bytes(),
                ) {
                    Ok(recorder) => {
                        films.recording().push(recorder.dir().to_owned());
                        films.keep_within_total(settings.total_bytes());
                        film = Some((now.task.clone(), recorder));
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
            let offered = recorder.offer(unix_ms(), &now.moment, || self.picture());
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
                task: (
                    c.id.clone(),
                    c.items
                        .iter()
                        .rposition(|i| matches!(i, ThreadItem::User { joined: false, .. }))
                        .unwrap_or(0),
                ),
                running: c.status.is_active(),
                moment: Moment::of(c),
            })
        })
    }

    /// The screen now, as the film keeps it.
    fn picture(&self) -> Option<Vec<u8>> {
        // The lock (which the bridge's next frame waits for) is held while the screen is read
        // at the film's size, a few ms; the JPEG is made after.
        let (width, height, rgb) = self
            .screen
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .small_picture(PICTURE_MAX_WIDTH)?;
        encode_picture(width, height, rgb)
    }

    fn finish(&self, films: &Films, film: Option<((String, usize), Recorder)>, moment: &Moment) {
        let Some((_, recorder)) = film else { return };
        let dir = recorder.dir().to_owned();
        if let Err(e) = recorder.close(unix_ms(), moment, || self.picture()) {
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

/// The calling thread yields to the app's others (nice 10): the film's pictures may wait, the
/// live view and the page should not. Linux keeps a nice value per thread; elsewhere the film's
/// thread keeps the app's priority (there it would take a platform API of its own).
fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: plain system calls on this thread's own id, with no memory passed.
        #[allow(unsafe_code)]
        let failed =
            unsafe { libc::setpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t, 10) != 0 };
        if failed {
            tracing::debug!("the film's thread keeps the app's priority");
        }
    }
}
