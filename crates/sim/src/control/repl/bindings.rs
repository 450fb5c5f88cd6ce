//! The globals a block sees besides the language itself: `console` (captured, not printed)
//! and `machine`, which acts on the lease's synthetic desktop so learned code really runs.
//!
//! `machine` API (all synchronous; `await` on them is harmless):
//! - `screenshot()` → `{ width, height, mimeType }`; the JPEG goes to `observations.screenshot`
//! - `click(x, y)` / `click({x, y})`, `move(x, y)`, `type(text)`, `press(key)`
//! - `open(app)` → focuses the window with that title or opens it; returns its id
//! - `close(title?)`, `readText(title?)`, `windows()`, `snapshot()` (outline text)
//! - `wait(ms)`: sleeps `ms` scaled by the time scale; stops early on interrupt
//! - `hang(ms, { wholeComputer })`: test hook, a native call that ignores interrupts
//!   (`wholeComputer`: the computer answers nothing meanwhile, see the lease's `unresponsive`)
//!
//! Native functions live on an object only the prelude sees; the globals it defines are not
//! enumerable, so they never show up in `variables`.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rquickjs::{Ctx, Exception, Function, Object};

use super::values::cut;
use super::Host;
use crate::desktop::Desktop;

/// Most console lines kept per block (the newest), and most characters per line.
pub const MAX_LOG_LINES: usize = 200;
pub const MAX_LOG_CHARS: usize = 2000;

#[derive(Default)]
struct ScratchInner {
    logs: VecDeque<String>,
    screenshot: Option<Vec<u8>>,
}

/// What a block leaves besides its value: console lines and the last screenshot.
#[derive(Clone, Default)]
pub struct Scratch(Rc<RefCell<ScratchInner>>);

impl Scratch {
    pub fn reset(&self) {
        *self.0.borrow_mut() = ScratchInner::default();
    }

    pub fn take(&self) -> (Vec<String>, Option<Vec<u8>>) {
        let inner = std::mem::take(&mut *self.0.borrow_mut());
        (inner.logs.into(), inner.screenshot)
    }

    fn log(&self, text: &str) {
        let mut inner = self.0.borrow_mut();
        for line in text.split('\n') {
            if inner.logs.len() == MAX_LOG_LINES {
                inner.logs.pop_front();
            }
            inner.logs.push_back(cut(line, MAX_LOG_CHARS));
        }
    }
}

const PRELUDE: &str = r#"
(function (native) {
  const fmt = (v) => {
    if (typeof v === 'string') return v;
    if (v === undefined) return 'undefined';
    if (typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint') return String(v);
    if (v instanceof Error) return String(v);
    try { const s = JSON.stringify(v); return s === undefined ? String(v) : s; } catch (e) { return String(v); }
  };
  const log = (...args) => native.log(args.map(fmt).join(' '));
  const point = (x, y) => (x !== null && typeof x === 'object') ? [Number(x.x), Number(x.y)] : [Number(x), Number(y)];
  const hidden = (name, value) => Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
  hidden('console', { log, info: log, warn: log, error: log, debug: log });
  hidden('machine', Object.freeze({
    screenshot: () => { const [width, height] = native.screenshot(); return { width, height, mimeType: 'image/jpeg' }; },
    click: (x, y) => { const [px, py] = point(x, y); native.click(px, py); return true; },
    move: (x, y) => { const [px, py] = point(x, y); native.move(px, py); return true; },
    type: (text) => { native.type(String(text)); return true; },
    press: (key) => { native.press(String(key)); return true; },
    open: (app) => native.open(String(app)),
    close: (title) => native.close(title === undefined ? undefined : String(title)),
    readText: (title) => native.readText(title === undefined ? undefined : String(title)),
    windows: () => JSON.parse(native.windows()),
    snapshot: () => native.snapshot(),
    wait: (ms) => { native.wait(Number(ms) || 0); return true; },
    hang: (ms, opts) => { native.hang(Number(ms) || 0, !!(opts && opts.wholeComputer)); return true; },
  }));
})
"#;

/// Defines `console` and `machine` in the context.
pub fn install(
    ctx: &Ctx<'_>,
    host: &Host,
    scratch: &Scratch,
    stop: &Arc<AtomicU8>,
) -> rquickjs::Result<()> {
    let native = Object::new(ctx.clone())?;
    let s = scratch.clone();
    native.set(
        "log",
        Function::new(ctx.clone(), move |text: String| s.log(&text))?,
    )?;

    let (d, s) = (host.desktop.clone(), scratch.clone());
    native.set(
        "screenshot",
        Function::new(ctx.clone(), move || {
            s.0.borrow_mut().screenshot = Some(d.jpeg(80));
            let (w, h) = d.size();
            vec![w, h]
        })?,
    )?;
    let d = host.desktop.clone();
    native.set(
        "click",
        Function::new(ctx.clone(), move |x: f64, y: f64| {
            d.click(x as i32, y as i32)
        })?,
    )?;
    let d = host.desktop.clone();
    native.set(
        "move",
        Function::new(ctx.clone(), move |x: f64, y: f64| {
            d.move_pointer(x as i32, y as i32)
        })?,
    )?;
    let d = host.desktop.clone();
    native.set(
        "type",
        Function::new(ctx.clone(), move |ctx: Ctx<'_>, text: String| -> rquickjs::Result<()> {
            if d.type_focused(&text) {
                Ok(())
            } else {
                Err(Exception::throw_message(&ctx, "precondition_failed: no window is open to type into; call machine.open(app) first"))
            }
        })?,
    )?;
    let d = host.desktop.clone();
    native.set(
        "press",
        Function::new(ctx.clone(), move |key: String| d.press(&key))?,
    )?;
    let d = host.desktop.clone();
    native.set(
        "open",
        Function::new(ctx.clone(), move |title: String| d.open_app(&title).0)?,
    )?;
    let d = host.desktop.clone();
    native.set(
        "close",
        Function::new(ctx.clone(), move |title: Option<String>| {
            match find(&d, title.as_deref()) {
                Some(w) => {
                    d.close_window(w.id);
                    true
                }
                None => false,
            }
        })?,
    )?;
    let d = host.desktop.clone();
    native.set(
        "readText",
        Function::new(ctx.clone(), move |title: Option<String>| match title {
            None => d.screen_text(),
            Some(t) => find(&d, Some(&t)).map(|w| w.text).unwrap_or_default(),
        })?,
    )?;
    let d = host.desktop.clone();
    native.set(
        "windows",
        Function::new(ctx.clone(), move || windows_json(&d))?,
    )?;
    let d = host.desktop.clone();
    native.set("snapshot", Function::new(ctx.clone(), move || outline(&d))?)?;

    let (scale, flag) = (host.time_scale, stop.clone());
    native.set(
        "wait",
        Function::new(ctx.clone(), move |ms: f64| {
            let until = Instant::now()
                + Duration::from_secs_f64((ms.max(0.0) * scale / 1000.0).min(3600.0));
            while Instant::now() < until && flag.load(Ordering::SeqCst) == 0 {
                std::thread::sleep(
                    Duration::from_millis(2).min(until.saturating_duration_since(Instant::now())),
                );
            }
        })?,
    )?;
    let (scale, frozen) = (host.time_scale, host.frozen.clone());
    native.set(
        "hang",
        Function::new(ctx.clone(), move |ms: f64, whole: bool| {
            if whole {
                frozen.store(true, Ordering::SeqCst);
            }
            std::thread::sleep(Duration::from_secs_f64(
                (ms.max(0.0) * scale / 1000.0).min(3600.0),
            ));
            frozen.store(false, Ordering::SeqCst);
        })?,
    )?;

    let prelude: Function = ctx.eval(PRELUDE)?;
    prelude.call::<_, ()>((native,))
}

fn find(d: &Desktop, title: Option<&str>) -> Option<crate::desktop::WindowInfo> {
    let windows = d.windows();
    match title {
        None => windows.into_iter().find(|w| w.focused),
        Some(t) => windows
            .into_iter()
            .rev()
            .find(|w| w.title.eq_ignore_ascii_case(t)),
    }
}

fn windows_json(d: &Desktop) -> String {
    let list: Vec<serde_json::Value> = d
        .windows()
        .into_iter()
        .map(|w| {
            serde_json::json!({
                "id": w.id.0, "title": w.title, "text": w.text, "focused": w.focused,
                "x": w.rect.x, "y": w.rect.y, "width": w.rect.w, "height": w.rect.h,
            })
        })
        .collect();
    serde_json::Value::Array(list).to_string()
}

/// The screen as an outline a model could read: one heading per window, its lines indented.
fn outline(d: &Desktop) -> String {
    let mut out = String::from("desktop\n");
    for w in d.windows().iter().rev() {
        let focus = if w.focused { " (focused)" } else { "" };
        out.push_str(&format!("  window \"{}\"{focus}\n", w.title));
        for line in w.text.lines().filter(|l| !l.trim().is_empty()) {
            out.push_str(&format!("    text \"{line}\"\n"));
        }
    }
    out
}
