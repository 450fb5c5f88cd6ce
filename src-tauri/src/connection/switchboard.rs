//! What choosing the service and signing in touch, in one struct built once at start
//! (`open_state` in lib.rs) and managed: the connection commands, the account commands and
//! the start's background switch take it, so a function's signature says what it reaches.
//! Every piece is a cheap clone of one shared value.

use std::sync::Arc;

use tauri::{AppHandle, Manager, State};

use super::demo::DemoService;
use super::Connection;
use crate::account::identity::Identity;
use crate::account::keys::FreshKey;
use crate::account::signin::BrowserWait;
use crate::console::Consoles;
use crate::conversations::Conversations;
use crate::inbox::Inbox;
use crate::machines::StartingMachines;
use crate::persist::SettingsStore;

#[derive(Clone)]
pub struct Switchboard {
    /// The shell: the events a switch sends and the inbox's window. The settings and the
    /// inbox are reached through it too, as their types are managed bare (persist.rs,
    /// inbox/) and shared with code that takes them as `State`.
    app: AppHandle,
    pub connection: Connection,
    pub conversations: Conversations,
    pub demo: Arc<DemoService>,
    /// Console leases belong to the connection they were opened on: a switch closes them.
    pub consoles: Arc<Consoles>,
    pub starting: Arc<StartingMachines>,
    pub identity: Arc<Identity>,
    pub fresh_key: Arc<FreshKey>,
    pub browser_wait: Arc<BrowserWait>,
}

impl Switchboard {
    /// Built from the pieces `open_state` made; the console leases and the computers being
    /// started are handed from here to the console's and the machines' own structs.
    pub fn new(app: &AppHandle, connection: Connection, conversations: Conversations) -> Self {
        Self {
            app: app.clone(),
            connection,
            conversations,
            demo: Arc::default(),
            consoles: Arc::default(),
            starting: Arc::default(),
            identity: Arc::default(),
            fresh_key: Arc::default(),
            browser_wait: Arc::default(),
        }
    }

    /// The Demo keeps its world in the data folder `dir` (`demo_world.rs`).
    pub fn keeping_demo_in(mut self, dir: &std::path::Path) -> Self {
        self.demo = Arc::new(DemoService::keeping_in(dir));
        self
    }

    pub fn app(&self) -> &AppHandle {
        &self.app
    }

    pub fn settings(&self) -> State<'_, SettingsStore> {
        self.app.state::<SettingsStore>()
    }

    pub fn inbox(&self) -> State<'_, Inbox> {
        self.app.state::<Inbox>()
    }

    /// The version tag every client of the account sends, as saved.
    pub fn version_tag(&self) -> Option<String> {
        self.settings().get().version_tag
    }
}
