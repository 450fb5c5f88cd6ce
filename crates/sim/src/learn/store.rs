//! Results of learn and judge calls: readable by id (by their owner only) and replayed by
//! `idempotency_key`. A repeated key waits for a call still in progress and then returns its
//! result with `idempotent_replay: true`; a call that failed with an error stores nothing, so
//! the same key may try again.

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};

use serde_json::Value;
use tokio::sync::OnceCell;

use crate::error::ApiError;

type Slot = Arc<OnceCell<Value>>;

/// Stored results of one kind (learn or judge) for one simulator.
#[derive(Default)]
pub struct ResultStore {
    by_id: Mutex<HashMap<String, (String, Value)>>,
    by_key: Mutex<HashMap<(String, String), Slot>>,
}

/// Whether a result was computed now or replayed.
pub enum Outcome {
    Fresh(Value),
    Replayed(Value),
}

impl ResultStore {
    /// The owner's result with this id.
    pub fn get(&self, owner: &str, id: &str) -> Option<Value> {
        let map = self.by_id.lock().unwrap_or_else(|e| e.into_inner());
        map.get(id)
            .filter(|(o, _)| o == owner)
            .map(|(_, v)| v.clone())
    }

    /// The replay of an earlier call with this key, if it finished.
    pub fn replay(&self, owner: &str, key: &str) -> Option<Value> {
        let map = self.by_key.lock().unwrap_or_else(|e| e.into_inner());
        map.get(&(owner.to_owned(), key.to_owned()))
            .and_then(|c| c.get().cloned())
    }

    fn slot(&self, owner: &str, key: &str) -> Slot {
        let mut map = self.by_key.lock().unwrap_or_else(|e| e.into_inner());
        map.entry((owner.to_owned(), key.to_owned()))
            .or_default()
            .clone()
    }

    /// Runs `work` once per key (or every time without a key) and stores its result under
    /// `id_field` of the result.
    pub async fn run<F>(
        &self,
        owner: &str,
        key: Option<&str>,
        id_field: &str,
        work: F,
    ) -> Result<Outcome, ApiError>
    where
        F: Future<Output = Result<Value, ApiError>>,
    {
        let Some(key) = key else {
            let v = work.await?;
            self.remember(owner, id_field, &v);
            return Ok(Outcome::Fresh(v));
        };
        let slot = self.slot(owner, key);
        let mut fresh = false;
        let v = slot
            .get_or_try_init(|| async {
                fresh = true;
                work.await
            })
            .await?
            .clone();
        if fresh {
            self.remember(owner, id_field, &v);
            Ok(Outcome::Fresh(v))
        } else {
            Ok(Outcome::Replayed(v))
        }
    }

    fn remember(&self, owner: &str, id_field: &str, v: &Value) {
        if let Some(id) = v.get(id_field).and_then(Value::as_str) {
            let mut map = self.by_id.lock().unwrap_or_else(|e| e.into_inner());
            map.insert(id.to_owned(), (owner.to_owned(), v.clone()));
        }
    }
}
