//! What is on the synthetic screen, as data: windows in stacking order, the pointer, the
//! sleep state and the animation counter. Pure state with no drawing, so the rules (where a
//! new window goes, what a click or a key does) are easy to read and test.

/// Identifies a window on one desktop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct WindowId(pub u32);

/// A rectangle in screen pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    pub x: i32,
    pub y: i32,
    pub w: i32,
    pub h: i32,
}

impl Rect {
    pub fn contains(&self, x: i32, y: i32) -> bool {
        x >= self.x && y >= self.y && x < self.x + self.w && y < self.y + self.h
    }
}

/// How a window's body is drawn, guessed from its title like a person would.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AppKind {
    Document,
    Terminal,
    Browser,
}

impl AppKind {
    fn from_title(title: &str) -> Self {
        let t = title.to_lowercase();
        if ["terminal", "shell", "console", "command"]
            .iter()
            .any(|w| t.contains(w))
        {
            AppKind::Terminal
        } else if ["browser", "web", "http", "chrome", "firefox", "search"]
            .iter()
            .any(|w| t.contains(w))
        {
            AppKind::Browser
        } else {
            AppKind::Document
        }
    }
}

/// One window.
#[derive(Debug, Clone)]
pub struct Window {
    pub id: WindowId,
    pub title: String,
    pub body: String,
    pub rect: Rect,
    pub kind: AppKind,
}

/// Height of a window's title bar; also where clicks on the close button land.
pub const TITLE_BAR: i32 = 34;
/// Height of the taskbar along the bottom edge.
pub const TASKBAR: i32 = 44;

#[derive(Debug, Clone)]
pub struct Scene {
    pub width: i32,
    pub height: i32,
    pub machine_name: String,
    next_window: u32,
    opened: u32,
    /// Bottom of the stack first; the last window is on top and has the focus.
    pub windows: Vec<Window>,
    pub pointer: (i32, i32),
    pub asleep: bool,
    /// Frame counter of the benchmark animation; `None` while the desktop is still.
    pub animation: Option<u64>,
}

impl Scene {
    pub fn new(width: u32, height: u32, machine_name: &str) -> Self {
        let (width, height) = (width.max(320) as i32, height.max(240) as i32);
        Self {
            width,
            height,
            machine_name: machine_name.to_owned(),
            next_window: 0,
            opened: 0,
            windows: Vec::new(),
            pointer: (width / 2, height / 2),
            asleep: false,
            animation: None,
        }
    }

    /// Opens a window, cascading from the top left so every title stays visible.
    pub fn open_window(&mut self, title: &str) -> WindowId {
        self.next_window += 1;
        let id = WindowId(self.next_window);
        let w = (self.width * 9 / 16).clamp(300, 1100);
        let h = ((self.height - TASKBAR) * 3 / 5).clamp(200, 700);
        // Spread new windows over the screen (as a person arranges them) so the one below
        // still shows some of its text.
        const SPOTS: [(i32, i32); 6] = [(12, 5), (40, 14), (22, 30), (52, 8), (18, 18), (36, 26)];
        let (fx, fy) = SPOTS[self.opened as usize % SPOTS.len()];
        self.opened += 1;
        let x = (self.width * fx / 100).min(self.width - w).max(0);
        let y = ((self.height - TASKBAR) * fy / 100)
            .min(self.height - TASKBAR - h)
            .max(0);
        self.windows.push(Window {
            id,
            title: title.to_owned(),
            body: String::new(),
            rect: Rect { x, y, w, h },
            kind: AppKind::from_title(title),
        });
        id
    }

    /// A new screen size: windows move and shrink in proportion so they stay on screen.
    pub fn resize(&mut self, width: i32, height: i32) {
        let (ow, oh) = (self.width.max(1), (self.height - TASKBAR).max(1));
        let nh = (height - TASKBAR).max(1);
        for w in &mut self.windows {
            let r = &mut w.rect;
            r.w = (r.w * width / ow).clamp(200, width);
            r.h = (r.h * nh / oh).clamp(120, nh);
            r.x = (r.x * width / ow).clamp(0, width - r.w);
            r.y = (r.y * nh / oh).clamp(0, nh - r.h);
        }
        self.pointer = (
            self.pointer.0 * width / ow,
            self.pointer.1 * height / self.height.max(1),
        );
        self.width = width;
        self.height = height;
    }

    pub fn window(&self, id: WindowId) -> Option<&Window> {
        self.windows.iter().find(|w| w.id == id)
    }

    pub fn window_mut(&mut self, id: WindowId) -> Option<&mut Window> {
        self.windows.iter_mut().find(|w| w.id == id)
    }

    pub fn focused(&self) -> Option<WindowId> {
        self.windows.last().map(|w| w.id)
    }

    /// Brings a window to the top (and so gives it the focus).
    pub fn raise(&mut self, id: WindowId) -> bool {
        let Some(at) = self.windows.iter().position(|w| w.id == id) else {
            return false;
        };
        let w = self.windows.remove(at);
        self.windows.push(w);
        true
    }

    pub fn close_window(&mut self, id: WindowId) {
        self.windows.retain(|w| w.id != id);
    }

    /// A click focuses the window under the pointer; on its close button it closes it.
    pub fn click(&mut self, x: i32, y: i32) {
        self.pointer = (x, y);
        let hit = self
            .windows
            .iter()
            .rev()
            .find(|w| w.rect.contains(x, y))
            .map(|w| (w.id, w.rect));
        if let Some((id, rect)) = hit {
            let on_close = y < rect.y + TITLE_BAR && x >= rect.x + rect.w - TITLE_BAR;
            if on_close {
                self.close_window(id);
            } else {
                self.raise(id);
            }
        }
    }

    /// A key press acts on the focused window: Enter starts a line, Backspace deletes.
    pub fn press(&mut self, key: &str) {
        let Some(id) = self.focused() else { return };
        let Some(w) = self.window_mut(id) else { return };
        match key.to_ascii_lowercase().as_str() {
            // Enter in the Browser runs the search typed on its last line, as a page loads:
            // the window shows that request and its result, so a saved task run with other
            // words reads its own result, not what the window showed before.
            "enter" | "return" if w.title.eq_ignore_ascii_case("browser") => {
                let request = w.body.lines().rev().find(|l| !l.trim().is_empty());
                if let Some(request) = request.map(|l| l.trim().to_owned()) {
                    let result = crate::agent::results::result_for(&request);
                    w.body = format!("{request}\n\nResult: {result}\n");
                } else {
                    w.body.push('\n');
                }
            }
            "enter" | "return" => w.body.push('\n'),
            "backspace" => {
                w.body.pop();
            }
            "tab" => w.body.push_str("    "),
            "space" => w.body.push(' '),
            k if k.chars().count() == 1 => w.body.push_str(key),
            _ => {}
        }
    }

    /// The text a person would read on the screen, topmost window last.
    pub fn text(&self) -> String {
        self.windows
            .iter()
            .map(|w| format!("{}\n{}", w.title, w.body))
            .collect::<Vec<_>>()
            .join("\n\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clicking_a_lower_window_raises_it_and_close_button_closes() {
        let mut s = Scene::new(1280, 800, "m");
        let a = s.open_window("Notes");
        let b = s.open_window("Terminal");
        assert_eq!(s.focused(), Some(b));
        let ra = s.window(a).map(|w| w.rect).unwrap_or(Rect {
            x: 0,
            y: 0,
            w: 0,
            h: 0,
        });
        s.click(ra.x + 5, ra.y + 5);
        assert_eq!(s.focused(), Some(a));
        s.click(ra.x + ra.w - 5, ra.y + 5);
        assert!(s.window(a).is_none());
        assert_eq!(s.window(b).map(|w| w.kind), Some(AppKind::Terminal));
    }

    #[test]
    fn keys_edit_the_focused_window() {
        let mut s = Scene::new(1280, 800, "m");
        let a = s.open_window("Notes");
        s.press("x");
        s.press("Enter");
        s.press("y");
        s.press("Backspace");
        assert_eq!(s.window(a).map(|w| w.body.as_str()), Some("x\n"));
    }
}
