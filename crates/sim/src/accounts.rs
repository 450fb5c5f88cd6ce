//! The simulator's accounts, fixed at start: ada (paid, four computers, one of which cannot
//! be woken), fred (free), nophone (free, phone not verified), plus ulla (unlimited plan) and pat (pay-as-you-go
//! with no payment method and no computer) so the unlimited plan, `not_billable` and "paid
//! account with no computer" are reachable. Plans and their display names live here too.

use serde::Serialize;

/// What a plan allows; the account endpoint shows `id`, `title`, `free`, `unlimited`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plan {
    Free,
    Starter,
    Pro,
    Business,
    Unlimited,
    PayAsYouGo,
}

impl Plan {
    /// `plan.id` of the account endpoint (`null` on the free plan).
    pub fn id(self) -> Option<&'static str> {
        match self {
            Plan::Free => None,
            Plan::Starter => Some("starter"),
            Plan::Pro => Some("pro"),
            Plan::Business => Some("business"),
            Plan::Unlimited => Some("unlimited"),
            Plan::PayAsYouGo => Some("payg"),
        }
    }

    /// The short name used in the ready line (`plan`).
    pub fn short_name(self) -> &'static str {
        self.id().unwrap_or("free")
    }

    pub fn title(self) -> &'static str {
        match self {
            Plan::Free => "Free",
            Plan::Starter => "Starter",
            Plan::Pro => "Pro",
            Plan::Business => "Business",
            Plan::Unlimited => "Unlimited",
            Plan::PayAsYouGo => "Pay as you go",
        }
    }

    pub fn is_free(self) -> bool {
        self == Plan::Free
    }

    pub fn is_unlimited(self) -> bool {
        self == Plan::Unlimited
    }

    /// Live API keys an account on this plan may hold.
    pub fn max_keys(self) -> usize {
        if self.is_free() {
            1
        } else {
            20
        }
    }

    /// Credit an account starts with (free: the daily grant, refreshed at UTC midnight).
    pub fn starting_credit_usd(self) -> f64 {
        match self {
            Plan::Free => FREE_DAILY_CREDIT_USD,
            Plan::Starter => 10.0,
            Plan::Pro => 25.0,
            Plan::Business => 100.0,
            Plan::Unlimited => 0.0,
            Plan::PayAsYouGo => 0.0,
        }
    }

    /// Upload storage quota in bytes.
    pub fn storage_quota(self) -> u64 {
        if self.is_free() {
            30 * 1024 * 1024
        } else {
            200 * 1024 * 1024
        }
    }
}

/// A free account's daily credit grant in US dollars.
pub const FREE_DAILY_CREDIT_USD: f64 = 0.5;

/// A free account's daily computer time, in documented (unscaled) seconds.
pub const FREE_DAILY_COMPUTER_SECS: u64 = 30 * 60;

/// A computer an account starts with.
#[derive(Debug, Clone)]
pub struct SeedMachine {
    pub name: &'static str,
    pub cloud: bool,
    pub hibernated: bool,
    /// `false`: asleep for good (`canWake: false`); a wake leaves it asleep.
    pub wakeable: bool,
}

/// An account as fixed at start.
#[derive(Debug, Clone)]
pub struct Account {
    pub name: &'static str,
    pub user_id: String,
    pub plan: Plan,
    pub phone_verified: bool,
    /// Whether a payment method is on file (paid computers need one).
    pub billable: bool,
    pub has_seed_key: bool,
    pub machines: Vec<SeedMachine>,
}

impl Account {
    /// `userState` of the account endpoint.
    pub fn user_state(&self) -> &'static str {
        if self.plan.is_free() {
            "active_free"
        } else {
            "active"
        }
    }
}

/// The accounts every simulator starts with, in ready-line order.
pub fn seed_accounts(mut new_user_id: impl FnMut() -> String) -> Vec<Account> {
    let cloud = |name, hibernated| SeedMachine {
        name,
        cloud: true,
        hibernated,
        wakeable: true,
    };
    vec![
        Account {
            name: "ada",
            user_id: new_user_id(),
            plan: Plan::Pro,
            phone_verified: true,
            billable: true,
            has_seed_key: true,
            machines: vec![
                cloud("Design laptop", false),
                cloud("Research box", true),
                SeedMachine {
                    name: "Ada's MacBook",
                    cloud: false,
                    hibernated: false,
                    wakeable: false,
                },
                // Sorts last, so the other three keep their places in the list.
                SeedMachine {
                    name: "Studio archive",
                    cloud: true,
                    hibernated: true,
                    wakeable: false,
                },
            ],
        },
        Account {
            name: "fred",
            user_id: new_user_id(),
            plan: Plan::Free,
            phone_verified: true,
            billable: false,
            has_seed_key: true,
            machines: vec![],
        },
        Account {
            name: "nophone",
            user_id: new_user_id(),
            plan: Plan::Free,
            phone_verified: false,
            billable: false,
            has_seed_key: false,
            machines: vec![],
        },
        Account {
            name: "ulla",
            user_id: new_user_id(),
            plan: Plan::Unlimited,
            phone_verified: true,
            billable: true,
            has_seed_key: true,
            machines: vec![cloud("Ulla's workstation", false)],
        },
        Account {
            name: "pat",
            user_id: new_user_id(),
            plan: Plan::PayAsYouGo,
            phone_verified: true,
            billable: false,
            has_seed_key: true,
            machines: vec![],
        },
    ]
}

/// An account as the ready line and `RunningSim::accounts` show it, with its credentials.
#[derive(Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SimAccount {
    pub name: String,
    pub user_id: String,
    pub plan: String,
    pub api_key: Option<String>,
    pub id_token: String,
}

impl std::fmt::Debug for SimAccount {
    // Credentials stay out of logs and panic messages.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SimAccount")
            .field("name", &self.name)
            .field("user_id", &self.user_id)
            .field("plan", &self.plan)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("id_token", &"<redacted>")
            .finish()
    }
}
