//! The account: sign-in with the identity provider (browser or token, kept and renewed), and
//! the account's API keys. Each file is one idea; `commands` adapts them.

pub mod commands;
pub mod connect;
pub mod identity;
pub mod keys;
pub mod redirect_catcher;
pub mod sign_in_vault;
pub mod signin;
pub mod signin_config;
pub mod token_life;
