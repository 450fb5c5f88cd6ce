//! `GET /v1/agents/account`: plan and credit. Slow when billing is (up to its 5 s timeout),
//! and then `credits` is `None` while the rest is filled.

use serde::{Deserialize, Serialize};

use crate::auth::AuthType;
use crate::client::Client;
use crate::error::{Operation, Result};
use crate::executor::Call;
use crate::open_enum::open_enum;

open_enum! {
    pub enum UserState {
        Active = "active",
        ActiveFree = "active_free",
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Account {
    pub user_id: String,
    #[serde(default)]
    pub user_state: Option<UserState>,
    pub plan: Plan,
    /// `None` when the billing lookup could not be reached.
    #[serde(default)]
    pub credits: Option<Credits>,
    pub auth_type: AuthType,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Plan {
    /// `None` on the free plan.
    #[serde(default)]
    pub id: Option<String>,
    pub title: String,
    #[serde(default)]
    pub free: bool,
    #[serde(default)]
    pub unlimited: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Credits {
    /// US dollars; `None` on the unlimited plan.
    #[serde(default)]
    pub usd: Option<f64>,
}

pub struct Accounts<'c> {
    client: &'c Client,
}

impl Client {
    pub fn account(&self) -> Accounts<'_> {
        Accounts { client: self }
    }
}

impl Accounts<'_> {
    pub async fn get(&self) -> Result<Account> {
        self.client
            .call(Call::get(Operation::Account, "/v1/agents/account"))
            .await
    }
}
