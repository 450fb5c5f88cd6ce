//! The synthetic desktop of one simulated cloud computer.
//!
//! One `Desktop` per cloud machine is shared by the scripted agent's steps, exec blocks
//! (`machine.*`), trajectory screenshots and the live stream, so all four always show the
//! same screen. Every change bumps a version published on a `watch` channel, which is how the
//! live stream knows a new frame is due.
//!
//! This first version is an interface stub (a plain background, text kept in memory) so the
//! server core can be written against it while the renderer is built.

use std::sync::{Arc, Mutex};
use tokio::sync::watch;

/// Identifies a window on one desktop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct WindowId(pub u32);

#[derive(Debug, Default)]
struct Scene {
    next_window: u32,
    windows: Vec<(WindowId, String, String)>,
    pointer: (i32, i32),
}

/// A cheap-to-clone handle on one machine's desktop.
#[derive(Clone)]
pub struct Desktop {
    width: u32,
    height: u32,
    scene: Arc<Mutex<Scene>>,
    version: Arc<watch::Sender<u64>>,
}

impl Desktop {
    pub fn new(width: u32, height: u32, _machine_name: &str) -> Self {
        Self {
            width,
            height,
            scene: Arc::default(),
            version: Arc::new(watch::channel(0).0),
        }
    }

    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// Opens a window with a title; it becomes the focused, topmost window.
    pub fn open_window(&self, title: &str) -> WindowId {
        let id = self.edit(|s| {
            s.next_window += 1;
            let id = WindowId(s.next_window);
            s.windows.push((id, title.to_owned(), String::new()));
            id
        });
        id
    }

    /// Appends text to a window's body (as if typed); `\n` starts a new line.
    pub fn type_text(&self, window: WindowId, text: &str) {
        self.edit(|s| {
            if let Some(w) = s.windows.iter_mut().find(|w| w.0 == window) {
                w.2.push_str(text);
            }
        });
    }

    pub fn close_window(&self, window: WindowId) {
        self.edit(|s| s.windows.retain(|w| w.0 != window));
    }

    pub fn move_pointer(&self, x: i32, y: i32) {
        self.edit(|s| s.pointer = (x, y));
    }

    pub fn click(&self, x: i32, y: i32) {
        self.move_pointer(x, y);
    }

    pub fn press(&self, _key: &str) {
        self.edit(|_| ());
    }

    pub fn pointer(&self) -> (i32, i32) {
        self.scene.lock().map(|s| s.pointer).unwrap_or_default()
    }

    /// The text a person would read on the screen, topmost window last.
    pub fn screen_text(&self) -> String {
        let scene = self.scene.lock().unwrap_or_else(|e| e.into_inner());
        scene
            .windows
            .iter()
            .map(|(_, title, body)| format!("{title}\n{body}"))
            .collect::<Vec<_>>()
            .join("\n\n")
    }

    /// The whole screen as a JPEG.
    pub fn jpeg(&self, quality: u8) -> Vec<u8> {
        let img = image::RgbImage::from_pixel(self.width, self.height, image::Rgb([32, 64, 96]));
        let mut out = Vec::new();
        let enc = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, quality);
        let _ = img.write_with_encoder(enc);
        out
    }

    /// Subscribe to changes: the value is bumped on every change of the screen.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.version.subscribe()
    }

    fn edit<T>(&self, f: impl FnOnce(&mut Scene) -> T) -> T {
        let out = {
            let mut scene = self.scene.lock().unwrap_or_else(|e| e.into_inner());
            f(&mut scene)
        };
        self.version.send_modify(|v| *v += 1);
        out
    }
}
