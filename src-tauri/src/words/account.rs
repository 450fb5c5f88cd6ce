//! Words for signing in, API keys and making a computer.

use super::Words;
use crate::error::UiAction::*;

pub const SIGN_IN_NEEDED: Words = Words::new(
    "Sign in to your account",
    "Managing keys and making computers needs you to sign in with your account, in the browser or with a sign-in token. If you had signed in, it may have expired.",
    Some(SignIn),
);
/// Asked before a call with a token that ran out, so no call fails on it.
pub const SIGN_IN_EXPIRED: Words = Words::new(
    "Sign in again",
    "Your sign-in has expired, so Porthole did not use it. Sign in again to manage keys or make a computer.",
    Some(SignIn),
);
pub const SIGN_IN_TIMED_OUT: Words = Words::new(
    "Sign-in took too long",
    "Porthole stopped waiting for the browser. Start signing in again when you are ready.",
    Some(Retry),
);
pub const SIGN_IN_CANCELLED: Words = Words::new(
    "Sign-in was cancelled",
    "The sign-in page did not finish. You can start again.",
    Some(Retry),
);
/// The person stopped the wait themselves: said plainly, nothing to fix.
pub const SIGN_IN_STOPPED: Words = Words::new("Sign-in cancelled", "Sign-in cancelled.", None);
/// The sign-in address does not answer, so the browser was not opened.
pub const SIGN_IN_UNREACHABLE: Words = Words::new(
    "Can't reach the sign-in page",
    "Porthole could not reach the sign-in address, so it did not open your browser. Check the address (leave “Sign-in address” empty to use the service's own) and your internet connection, then try again, or paste a sign-in token instead.",
    Some(Retry),
);
pub const SIGN_IN_UNAVAILABLE: Words = Words::new(
    "Couldn't start signing in",
    "Porthole could not open your browser for signing in. You can paste a sign-in token instead.",
    None,
);
pub const NOT_A_SIGN_IN_TOKEN: Words = Words::new(
    "That is an API key",
    "This box needs a sign-in token, not an API key. Put an API key in the “API key” box below instead.",
    None,
);
pub const KEY_RATE_LIMITED: Words = Words::new(
    "Five new keys an hour",
    "You can make at most five keys in an hour. Try again later.",
    Some(WaitUntil),
);
pub const KEY_LIMIT_REACHED: Words = Words::new(
    "No room for another key",
    "Your account has as many keys as its plan allows (one on the free plan, twenty on paid plans). Revoke a key you no longer use, then make a new one.",
    None,
);
pub const KEY_NOT_FOUND: Words = Words::new(
    "Key already gone",
    "This key was already revoked. The list has been refreshed.",
    None,
);
pub const KEY_NEEDS_PHONE: Words = Words::new(
    "Verify your phone first",
    "Free accounts need a verified phone number to make a key. Verify it in the web portal, then sign in again here and make the key.",
    Some(SignIn),
);
pub const KEY_NAME_TOO_LONG: Words = Words::new(
    "Name too long",
    "A key's name can be at most 100 characters.",
    None,
);
pub const NEW_KEY_GONE: Words = Words::new(
    "That key is no longer at hand",
    "Porthole only keeps a new key until its window closes. Make another key to use it here.",
    None,
);
pub const CREATION_BUSY: Words = Words::new(
    "A computer is already being made",
    "Your account is already making a computer, or has made three this hour. Wait until it is ready, then try again.",
    Some(WaitUntil),
);
pub const FREE_PLAN_COMPUTER: Words = Words::new(
    "Free plans have one shared computer",
    "On the free plan you use the free cloud computer; making more computers needs a paid plan.",
    None,
);
pub const NOT_BILLABLE: Words = Words::new(
    "Your account can't pay for a computer",
    "A new computer is paid for from your plan, and your account has no way to pay right now. Add a payment method in the web portal, then try again.",
    None,
);
pub const COMPUTER_NOT_ONLINE: Words = Words::new(
    "The new computer isn't ready yet",
    "It is taking longer than usual. It will appear in your list when it is ready.",
    None,
);
/// Signing in worked, but connecting Porthole needs a key and the account has no room for one.
pub const SIGNED_IN_KEY_LIMIT: Words = Words::new(
    "No room for Porthole's key",
    "You are signed in, but your account already has as many keys as its plan allows, and Porthole needs one of its own. Revoke a key you no longer use (below), then press “Connect Porthole”. Or connect with a key you have, under “Use an API key instead / Advanced”.",
    Some(Retry),
);
/// Signing in worked, but a free account's key needs a verified phone first.
pub const SIGNED_IN_NEEDS_PHONE: Words = Words::new(
    "Verify your phone number first",
    "You are signed in, but a free account needs a verified phone number before Porthole can connect to it. Verify your phone in the web portal, then sign in here again.",
    Some(SignIn),
);
