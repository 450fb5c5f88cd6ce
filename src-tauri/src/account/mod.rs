//! The account and file features: sign-in with the identity provider, API keys, creating a
//! cloud computer, attachments and usage. Each file is one idea; `commands` adapts them.

pub mod commands;
pub mod computers;
pub mod identity;
pub mod keys;
pub mod redirect_catcher;
pub mod sign_in_vault;
pub mod signin;
pub mod token_life;
pub mod uploads;
pub mod usage;
