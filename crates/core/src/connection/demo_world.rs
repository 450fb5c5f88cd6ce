//! The Demo's world kept with the app's data (`demo-world.json`), so a restart shows the
//! Demo's computers and conversations as they were, as any app would.
//!
//! The simulator copies its world ([`porthole_sim::World`]) and starts from a copy; keeping
//! the copy is the app's: a versioned document written atomically (`store::document`), saved
//! a moment after the Demo's records change and once more when the app ends. A file that
//! cannot be read is moved aside untouched and the Demo starts fresh, and the window says so
//! among its stored-data notices; the conversations stay on disk either way.

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use porthole_sim::{AppState, World};

use crate::error::AppResult;
use crate::store::document::store_error;
use crate::store::{atomic, Document, SetAside};

/// The file, in the data folder.
pub const FILE: &str = "demo-world.json";

/// How long the saver lets a burst of changes (a task's steps) settle before it writes.
const SETTLE: Duration = Duration::from_millis(300);

/// Where the Demo's world is kept, and what was read there at start.
pub struct KeptWorld {
    /// `None` when the file could not even be looked at (permissions, a failing disk): the
    /// Demo then runs without keeping, rather than overwrite what it could not read.
    doc: Option<Document>,
    /// Read at start, handed to the first Demo started.
    read: Mutex<Option<World>>,
    set_aside: Option<SetAside>,
    /// Held while the file is written or removed, so a save still under way when the Demo
    /// is reset never lands after it.
    writing: Mutex<()>,
    /// Which Demo's world the file holds: a reset moves to the next, and a save of an
    /// earlier one is dropped.
    generation: AtomicU64,
}

impl KeptWorld {
    /// Reads the kept world in `dir`; never fails, as the Demo can always start fresh.
    pub fn open_in(dir: &Path) -> Self {
        let doc = Document::new(dir.join(FILE), "world");
        match doc.open::<World>() {
            Ok(opened) => {
                if let Some(aside) = &opened.set_aside {
                    tracing::warn!(moved_to = %aside.moved_to.display(), "the Demo's world could not be read");
                }
                Self::with(Some(doc), opened.value, opened.set_aside)
            }
            Err(err) => {
                tracing::warn!(error = %err, "the Demo's world could not be opened; it is not kept");
                Self::with(None, None, None)
            }
        }
    }

    fn with(doc: Option<Document>, read: Option<World>, set_aside: Option<SetAside>) -> Self {
        Self {
            doc,
            read: Mutex::new(read),
            set_aside,
            writing: Mutex::new(()),
            generation: AtomicU64::new(0),
        }
    }

    /// The world read at start, once: a Demo started again (after a reset) starts fresh.
    pub fn take(&self) -> Option<World> {
        self.read.lock().unwrap_or_else(|e| e.into_inner()).take()
    }

    /// The unreadable file moved aside at start, if there was one.
    pub fn set_aside(&self) -> Option<&SetAside> {
        self.set_aside.as_ref()
    }

    /// Saves the Demo's world now (the app is ending).
    pub fn save(&self, sim: &AppState) -> AppResult<()> {
        self.save_of(self.generation.load(Ordering::SeqCst), &sim.world())
    }

    fn save_of(&self, generation: u64, world: &World) -> AppResult<()> {
        let Some(doc) = &self.doc else {
            return Ok(());
        };
        let _writing = self.writing.lock().unwrap_or_else(|e| e.into_inner());
        if self.generation.load(Ordering::SeqCst) != generation {
            return Ok(());
        }
        doc.save(world)
    }

    /// Saves the world at once (so a fresh Demo's computer ids are kept before anything
    /// happens), then a moment after each change, until the returned task is aborted.
    pub fn keep_saving(self: &Arc<Self>, sim: AppState) -> impl std::future::Future<Output = ()> {
        let kept = self.clone();
        let generation = self.generation.load(Ordering::SeqCst);
        async move {
            let mut changes = sim.changes();
            loop {
                let (world, to) = (sim.world(), kept.clone());
                match tokio::task::spawn_blocking(move || to.save_of(generation, &world)).await {
                    Ok(Ok(())) => {}
                    Ok(Err(err)) => tracing::warn!(error = %err, "the Demo's world was not saved"),
                    Err(err) => tracing::warn!(error = %err, "the Demo's world was not saved"),
                }
                if changes.changed().await.is_err() {
                    return;
                }
                tokio::time::sleep(SETTLE).await;
                changes.mark_unchanged();
            }
        }
    }

    /// Forgets the kept world and its last good copy (the Demo is reset).
    pub fn forget(&self) -> AppResult<()> {
        self.take();
        let _writing = self.writing.lock().unwrap_or_else(|e| e.into_inner());
        self.generation.fetch_add(1, Ordering::SeqCst);
        let Some(doc) = &self.doc else {
            return Ok(());
        };
        for path in [doc.path.clone(), atomic::previous(&doc.path)] {
            match std::fs::remove_file(&path) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(store_error(e)),
            }
        }
        Ok(())
    }
}
