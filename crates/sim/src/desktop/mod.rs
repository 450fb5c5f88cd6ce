//! The synthetic desktop of one simulated cloud computer.
//!
//! One `Desktop` per cloud machine is shared by the scripted agent's steps, exec blocks
//! (`machine.*`), trajectory screenshots and the live stream, so all four always show the
//! same screen. Every change bumps a version published on a `watch` channel, which is how the
//! live stream knows a new frame is due.
//!
//! Rendering is lazy and cached: a frame is drawn only when someone asks for pixels and the
//! scene (or the taskbar clock's minute) changed since the last frame, and the wallpaper is
//! drawn once per desktop. Frames exclude the pointer; screenshots composite it on top, the
//! live stream sends it as a Guacamole cursor.

mod clock;
mod encode;
// Public for porthole-core's film export, which burns captions in with the same fonts.
pub mod font;
mod overlay;
mod render;
mod scene;

use std::sync::{Arc, Mutex};

use tiny_skia::Pixmap;
use tokio::sync::watch;

use clock::Clock;
pub use encode::dirty_rects;
pub use overlay::CursorImage;
use scene::Scene;
pub use scene::{AppKind, Rect, WindowId};

/// A window as seen from outside: what `machine.windows()` and tests read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WindowInfo {
    pub id: WindowId,
    pub title: String,
    pub text: String,
    pub rect: Rect,
    pub focused: bool,
}

struct Cached {
    version: u64,
    clock: Clock,
    frame: Arc<Pixmap>,
}

/// The screen without the benchmark animation, so an animation tick redraws only its own
/// small areas on a copy instead of the whole desktop.
struct Base {
    content: u64,
    clock: Clock,
    frame: Arc<Pixmap>,
}

/// A cheap-to-clone handle on one machine's desktop.
#[derive(Clone)]
pub struct Desktop {
    scene: Arc<Mutex<Scene>>,
    version: Arc<watch::Sender<u64>>,
    /// Drawn once per screen size.
    wallpaper: Arc<Mutex<Option<Arc<Pixmap>>>>,
    cache: Arc<Mutex<Option<Cached>>>,
    base: Arc<Mutex<Option<Base>>>,
    /// Bumped by every change except an animation tick.
    content: Arc<std::sync::atomic::AtomicU64>,
}

impl std::fmt::Debug for Desktop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (width, height) = self.size();
        f.debug_struct("Desktop")
            .field("width", &width)
            .field("height", &height)
            .finish()
    }
}

impl Desktop {
    pub fn new(width: u32, height: u32, machine_name: &str) -> Self {
        let scene = Scene::new(width, height, machine_name);
        Self {
            scene: Arc::new(Mutex::new(scene)),
            version: Arc::new(watch::channel(0).0),
            wallpaper: Arc::default(),
            cache: Arc::default(),
            base: Arc::default(),
            content: Arc::default(),
        }
    }

    pub fn size(&self) -> (u32, u32) {
        self.read(|s| (s.width as u32, s.height as u32))
    }

    /// Changes the screen size (as a remote desktop follows its viewer's window); windows
    /// keep their place relative to the screen. Sizes are clamped to 320×240 … 3840×2160.
    pub fn resize(&self, width: u32, height: u32) {
        let (w, h) = (width.clamp(320, 3840), height.clamp(240, 2160));
        if self.size() != (w, h) {
            self.edit(|s| s.resize(w as i32, h as i32));
        }
    }

    /// Opens a window with a title; it becomes the focused, topmost window.
    pub fn open_window(&self, title: &str) -> WindowId {
        self.edit(|s| s.open_window(title))
    }

    /// Focuses the topmost window with this title, or opens one: what launching an app does.
    pub fn open_app(&self, title: &str) -> WindowId {
        self.edit(|s| {
            let existing = s
                .windows
                .iter()
                .rev()
                .find(|w| w.title.eq_ignore_ascii_case(title))
                .map(|w| w.id);
            match existing {
                Some(id) => {
                    s.raise(id);
                    id
                }
                None => s.open_window(title),
            }
        })
    }

    /// Appends text to a window's body (as if typed); `\n` starts a new line.
    pub fn type_text(&self, window: WindowId, text: &str) {
        self.edit(|s| {
            if let Some(w) = s.window_mut(window) {
                w.body.push_str(text);
            }
        });
    }

    /// Types into the focused window; returns false when no window is open.
    pub fn type_focused(&self, text: &str) -> bool {
        self.edit(|s| match s.focused().and_then(|id| s.window_mut(id)) {
            Some(w) => {
                w.body.push_str(text);
                true
            }
            None => false,
        })
    }

    /// Replaces a window's body (a page loaded, a result shown).
    pub fn set_text(&self, window: WindowId, text: &str) {
        self.edit(|s| {
            if let Some(w) = s.window_mut(window) {
                w.body = text.to_owned();
            }
        });
    }

    pub fn close_window(&self, window: WindowId) {
        self.edit(|s| s.close_window(window));
    }

    /// Brings a window to the front; false when it does not exist.
    pub fn focus(&self, window: WindowId) -> bool {
        self.edit(|s| s.raise(window))
    }

    pub fn move_pointer(&self, x: i32, y: i32) {
        let (x, y) = self.clamp(x, y);
        self.edit(|s| s.pointer = (x, y));
    }

    /// Moves the pointer there and clicks: focuses the window under it, or closes it when
    /// the click is on its close button.
    pub fn click(&self, x: i32, y: i32) {
        let (x, y) = self.clamp(x, y);
        self.edit(|s| s.click(x, y));
    }

    /// A key press on the focused window (`Enter`, `Backspace`, `Tab`, or one character).
    pub fn press(&self, key: &str) {
        self.edit(|s| s.press(key));
    }

    pub fn pointer(&self) -> (i32, i32) {
        self.read(|s| s.pointer)
    }

    /// The text a person would read on the screen, topmost window last.
    pub fn screen_text(&self) -> String {
        self.read(Scene::text)
    }

    pub fn window_text(&self, window: WindowId) -> Option<String> {
        self.read(|s| s.window(window).map(|w| w.body.clone()))
    }

    /// Open windows, bottom of the stack first.
    pub fn windows(&self) -> Vec<WindowInfo> {
        self.read(|s| {
            let focused = s.focused();
            s.windows
                .iter()
                .map(|w| WindowInfo {
                    id: w.id,
                    title: w.title.clone(),
                    text: w.body.clone(),
                    rect: w.rect,
                    focused: Some(w.id) == focused,
                })
                .collect()
        })
    }

    /// A sleeping computer shows a dark screen; set when the machine hibernates.
    pub fn set_asleep(&self, asleep: bool) {
        if self.read(|s| s.asleep) != asleep {
            self.edit(|s| s.asleep = asleep);
        }
    }

    pub fn is_asleep(&self) -> bool {
        self.read(|s| s.asleep)
    }

    /// Advances the benchmark animation by one frame (starting it if needed), so the screen
    /// changes continuously while a benchmark watches the live stream.
    pub fn tick_animation(&self) {
        {
            let mut scene = self.scene.lock().unwrap_or_else(|e| e.into_inner());
            scene.animation = Some(scene.animation.map_or(0, |f| f + 1));
        }
        self.version.send_modify(|v| *v += 1);
    }

    /// Stops the benchmark animation and removes it from the screen.
    pub fn stop_animation(&self) {
        if self.read(|s| s.animation.is_some()) {
            self.edit(|s| s.animation = None);
        }
    }

    /// Whether two handles show the same screen (a machine given back to the pool gets a
    /// new desktop, which ends streams of the old one).
    pub fn same_screen(&self, other: &Desktop) -> bool {
        Arc::ptr_eq(&self.scene, &other.scene)
    }

    /// The current version of the screen (bumped on every change).
    pub fn version(&self) -> u64 {
        *self.version.borrow()
    }

    /// The whole screen as a JPEG, pointer included.
    pub fn jpeg(&self, quality: u8) -> Vec<u8> {
        encode::jpeg(&self.screenshot_pixels(), quality)
    }

    /// The whole screen as a PNG, pointer included.
    pub fn png(&self) -> Vec<u8> {
        encode::png(&self.screenshot_pixels(), None)
    }

    /// The current frame without the pointer (shared, rendered only on change).
    pub fn frame(&self) -> Arc<Pixmap> {
        let clock = Clock::now();
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        let version = self.version();
        if let Some(c) = cache
            .as_ref()
            .filter(|c| c.version == version && c.clock == clock)
        {
            return c.frame.clone();
        }
        // Counters are read before the scene: an edit in between then only costs a redraw,
        // never a stale frame under a new number.
        let content = self.content.load(std::sync::atomic::Ordering::SeqCst);
        let scene = self.read(Scene::clone);
        let base = self.base_frame(&scene, content, &clock);
        let frame = match scene.animation {
            Some(tick) => {
                let mut pm = (*base).clone();
                overlay::animation(&mut pm, &scene, tick);
                Arc::new(pm)
            }
            None => base,
        };
        *cache = Some(Cached {
            version,
            clock,
            frame: frame.clone(),
        });
        frame
    }

    /// A JPEG of the whole of `frame` (as returned by [`Desktop::frame`]).
    pub fn encode_jpeg(frame: &Pixmap, quality: u8) -> Vec<u8> {
        encode::jpeg(frame, quality)
    }

    /// A PNG of one region of `frame`.
    pub fn encode_png(frame: &Pixmap, region: Rect) -> Vec<u8> {
        encode::png(frame, Some(region))
    }

    /// The pointer image for a remote cursor.
    pub fn cursor_image() -> CursorImage {
        overlay::cursor_image()
    }

    /// Subscribe to changes: the value is bumped on every change of the screen.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.version.subscribe()
    }

    fn screenshot_pixels(&self) -> Pixmap {
        let mut pm = (*self.frame()).clone();
        if !self.is_asleep() {
            if let Some(pointer) = overlay::pointer_image() {
                let (x, y) = self.pointer();
                overlay::draw_pointer(&mut pm, &pointer, x - 1, y - 1);
            }
        }
        pm
    }

    fn base_frame(&self, scene: &Scene, content: u64, clock: &Clock) -> Arc<Pixmap> {
        let mut base = self.base.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(b) = base
            .as_ref()
            .filter(|b| b.content == content && &b.clock == clock)
        {
            return b.frame.clone();
        }
        let frame = match self.wallpaper(scene.width as u32, scene.height as u32) {
            Some(wp) => Arc::new(render::scene(scene, &wp, clock)),
            None => Arc::new(blank(scene.width as u32, scene.height as u32)),
        };
        *base = Some(Base {
            content,
            clock: clock.clone(),
            frame: frame.clone(),
        });
        frame
    }

    fn wallpaper(&self, width: u32, height: u32) -> Option<Arc<Pixmap>> {
        let mut cached = self.wallpaper.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(wp) = cached
            .as_ref()
            .filter(|w| (w.width(), w.height()) == (width, height))
        {
            return Some(wp.clone());
        }
        let wp = Arc::new(render::wallpaper(width, height)?);
        *cached = Some(wp.clone());
        Some(wp)
    }

    fn clamp(&self, x: i32, y: i32) -> (i32, i32) {
        let (w, h) = self.size();
        (x.clamp(0, w as i32 - 1), y.clamp(0, h as i32 - 1))
    }

    fn read<T>(&self, f: impl FnOnce(&Scene) -> T) -> T {
        let scene = self.scene.lock().unwrap_or_else(|e| e.into_inner());
        f(&scene)
    }

    fn edit<T>(&self, f: impl FnOnce(&mut Scene) -> T) -> T {
        let out = {
            let mut scene = self.scene.lock().unwrap_or_else(|e| e.into_inner());
            f(&mut scene)
        };
        self.content
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        self.version.send_modify(|v| *v += 1);
        out
    }
}

fn blank(width: u32, height: u32) -> Pixmap {
    let mut pm = Pixmap::new(width.max(1), height.max(1)).unwrap_or_else(|| {
        // 1×1 is always a valid size.
        Pixmap::new(1, 1).unwrap_or_else(|| unreachable!("a 1x1 pixmap always allocates"))
    });
    pm.fill(tiny_skia::Color::from_rgba8(32, 64, 96, 255));
    pm
}
