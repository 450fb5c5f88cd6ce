//! How the person arranged the window, kept across restarts: the sidebar folded or not (in a
//! wide window and in a narrow one), how much of the work area the live screen takes, and
//! whether developer tools are shown.
//!
//! Only layout lives here (no secret, nothing about an account). An unreadable file is set
//! aside by the store and the window starts with the default layout: losing a splitter
//! position is not worth a notice in the person's way.

pub mod commands;

use std::path::Path;

use serde::{Deserialize, Serialize};
use specta::Type;
use tauri::AppHandle;

use crate::data_folder::data_dir;
use crate::error::AppResult;
use crate::store::{Document, Persisted};

/// The live screen's share of the work area, when the person has not dragged the splitter.
pub const DEFAULT_LIVE_SHARE: f64 = 0.6;
/// Neither column may be dragged away entirely.
pub const MIN_LIVE_SHARE: f64 = 0.25;
pub const MAX_LIVE_SHARE: f64 = 0.8;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase", default)]
pub struct WindowLayout {
    /// The sidebar is folded away (a thin rail stays to bring it back), in a window wide
    /// enough for it beside the stage.
    pub sidebar_folded: bool,
    /// The person opened the sidebar in a narrower window (the app's own 1180×760 among
    /// them), where it starts folded to its rail: kept, so it is opened once, not every start.
    pub sidebar_open_narrow: bool,
    /// The live screen's share of the work area's width, 0.25 to 0.8.
    pub live_share: f64,
    /// Developer tools: the console in each computer's menu and the live screen's frame-rate
    /// readout. Off by default; this app is for people who are not programmers.
    pub developer_tools: bool,
    /// The Demo's first-run card was put away: it greets a first start only.
    pub first_run_done: bool,
}

impl Default for WindowLayout {
    fn default() -> Self {
        Self {
            sidebar_folded: false,
            sidebar_open_narrow: false,
            live_share: DEFAULT_LIVE_SHARE,
            developer_tools: false,
            first_run_done: false,
        }
    }
}

impl WindowLayout {
    /// The same layout with every value in its range (a hand-edited or older file, or a page
    /// that sent a share out of range, never leaves a column of zero width).
    pub fn in_range(mut self) -> Self {
        self.live_share = if self.live_share.is_finite() {
            self.live_share.clamp(MIN_LIVE_SHARE, MAX_LIVE_SHARE)
        } else {
            DEFAULT_LIVE_SHARE
        };
        self
    }
}

/// The layout on disk (`layout.json` in the data folder).
pub struct LayoutStore {
    kept: Persisted<WindowLayout>,
}

impl LayoutStore {
    pub fn open(app: &AppHandle) -> AppResult<Self> {
        Self::open_in(&data_dir(app)?)
    }

    pub fn open_in(dir: &Path) -> AppResult<Self> {
        Ok(Self {
            kept: Persisted::open(Document::new(dir.join("layout.json"), "layout"))?,
        })
    }

    pub fn get(&self) -> WindowLayout {
        self.kept.read(|l| l.clone().in_range())
    }

    pub fn set(&self, layout: WindowLayout) -> AppResult<WindowLayout> {
        let layout = layout.in_range();
        self.kept.write_if(|kept| {
            let changed = *kept != layout;
            *kept = layout.clone();
            changed
        })?;
        Ok(layout)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_install_opens_with_the_sidebar_the_live_screen_at_sixty_percent_no_developer_tools() {
        let dir = tempfile::tempdir().unwrap();
        let store = LayoutStore::open_in(dir.path()).unwrap();
        assert_eq!(store.get(), WindowLayout::default());
        assert_eq!(store.get().live_share, 0.6);
        assert!(!store.get().developer_tools);
    }

    #[test]
    fn the_layout_is_kept_across_a_restart() {
        let dir = tempfile::tempdir().unwrap();
        let chosen = WindowLayout {
            sidebar_folded: true,
            sidebar_open_narrow: true,
            live_share: 0.7,
            developer_tools: true,
            first_run_done: true,
        };
        LayoutStore::open_in(dir.path())
            .unwrap()
            .set(chosen.clone())
            .unwrap();
        assert_eq!(LayoutStore::open_in(dir.path()).unwrap().get(), chosen);
    }

    #[test]
    fn a_share_out_of_range_is_brought_back_into_it() {
        let dir = tempfile::tempdir().unwrap();
        let store = LayoutStore::open_in(dir.path()).unwrap();
        let wide = WindowLayout {
            live_share: 3.0,
            ..WindowLayout::default()
        };
        assert_eq!(store.set(wide).unwrap().live_share, MAX_LIVE_SHARE);
        let gone = WindowLayout {
            live_share: f64::NAN,
            ..WindowLayout::default()
        };
        assert_eq!(store.set(gone).unwrap().live_share, DEFAULT_LIVE_SHARE);
        let narrow: WindowLayout = serde_json::from_str(r#"{"liveShare":0.01}"#).unwrap();
        assert_eq!(narrow.in_range().live_share, MIN_LIVE_SHARE);
    }

    #[test]
    fn an_older_or_partial_file_still_loads() {
        let l: WindowLayout = serde_json::from_str(r#"{"sidebarFolded":true}"#).unwrap();
        assert!(l.sidebar_folded);
        assert!(!l.sidebar_open_narrow);
        assert_eq!(l.live_share, DEFAULT_LIVE_SHARE);
        assert!(!l.developer_tools);
    }
}
