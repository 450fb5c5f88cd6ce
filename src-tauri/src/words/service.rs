//! Words for what the service refused, or when it could not be reached.

use super::Words;
use crate::error::UiAction::*;

pub const UNAUTHORIZED: Words = Words::new(
    "Your key was not accepted",
    "The service did not accept this API key. It may be mistyped or revoked. Connect again with a current key.",
    Some(SignIn),
);
pub const FORBIDDEN: Words = Words::new(
    "Not allowed for this account",
    "Your account is not allowed to do this. Your plan may not include it.",
    None,
);
pub const RATE_LIMITED: Words = Words::new(
    "Too many requests for now",
    "You have reached this hour's limit for this kind of request. You can try again later.",
    Some(WaitUntil),
);
pub const MACHINE_BUSY: Words = Words::new(
    "The computer is busy",
    "Another task is using this computer right now. Try again in a little while.",
    Some(WaitUntil),
);
pub const MACHINE_UNAVAILABLE: Words = Words::new(
    "The computer is not available",
    "The computer did not come online in time. Try again shortly.",
    Some(WaitUntil),
);
pub const MACHINE_NOT_RUNNING: Words = Words::new(
    "The computer is asleep",
    "This computer is asleep or still starting. Wake it, then try again.",
    Some(Wake),
);
pub const MACHINE_NOT_FOUND: Words = Words::new(
    "Computer not found",
    "This computer is no longer on your account. The list has been refreshed.",
    Some(Retry),
);
pub const MESSAGE_NOT_ACCEPTED: Words = Words::new(
    "The computer could not take this",
    "The computer could not be reached just now. Make sure it is awake, then try again.",
    Some(Retry),
);
pub const MESSAGE_NOT_SENT: Words = Words::new(
    "Your message was not sent",
    "The service did not take your message, even sent again. Send it again in a moment.",
    Some(Retry),
);
/// The app stopped while a message was being sent again: whether the service took it is not
/// known, and Porthole does not guess.
pub const MESSAGE_NOT_KNOWN_SENT: Words = Words::new(
    "Your message may not have been sent",
    "Porthole closed while sending it. If no task started for it, send it again.",
    Some(Retry),
);
pub const NO_MACHINE: Words = Words::new(
    "No computer yet",
    "Your account has no computer to work on. Add one in the web portal first.",
    None,
);
pub const SEVERAL_MACHINES: Words = Words::new(
    "Choose a computer",
    "Several computers could take this task. Pick one in the list on the left.",
    None,
);
pub const MODEL_NOT_ALLOWED_FOR_PLAN: Words = Words::new(
    "This model is not on your plan",
    "Your plan does not include the chosen model. Pick another one, or choose Auto.",
    Some(ChooseModel),
);
pub const INSUFFICIENT_CREDITS: Words = Words::new(
    "You are out of credits",
    "There is no credit left for tasks. Free credits come back at midnight UTC; paid plans can top up in the web portal.",
    Some(WaitUntil),
);
pub const FREE_COMPUTER_TIME_EXHAUSTED: Words = Words::new(
    "Today's free computer time is used up",
    "The free computer has run for all of today's time and was shut down. It can be used again after midnight UTC.",
    Some(WaitUntil),
);
pub const PHONE_VERIFICATION_REQUIRED: Words = Words::new(
    "Phone check needed",
    "Verify your phone number in the web portal, sign in again, then try again.",
    Some(SignIn),
);
pub const SESSION_NOT_FOUND: Words = Words::new(
    "This conversation has ended",
    "The service no longer knows this conversation. Start a new conversation to go on.",
    Some(NewConversation),
);
pub const APPROVAL_RESOLVED: Words = Words::new(
    "Already answered",
    "This request was already answered or has expired.",
    None,
);
pub const SELECTION_REJECTED: Words = Words::new(
    "That choice wasn't accepted",
    "The service did not accept this choice. The question is still waiting: pick again.",
    None,
);
pub const APPROVAL_LINK_ONLY: Words = Words::new(
    "Answer on the web page",
    "This request can only be answered on its web page. Open it in your browser.",
    None,
);
pub const NETWORK: Words = Words::new(
    "Can't reach the service",
    "Porthole could not reach the service. Check your internet connection, then try again.",
    Some(Retry),
);
pub const SERVER_ERROR: Words = Words::new(
    "Something went wrong on the service",
    "The service had a problem with this request. Try again in a moment.",
    Some(Retry),
);
pub const INVALID_BASE_URL: Words = Words::new(
    "That address doesn't look right",
    "Enter the service address as a web address, for example https://service.example.com.",
    None,
);
pub const INSECURE_ADDRESS: Words = Words::new(
    "This address needs https://",
    "Porthole sends your key and sign-in only over a secure connection. Use the address that starts with https://; plain http:// works only for a service on this computer (localhost or 127.0.0.1).",
    None,
);
pub const INVALID_CREDENTIAL: Words = Words::new(
    "That key doesn't look right",
    "An API key is one word with no spaces. Copy it again from the web portal.",
    None,
);
pub const REFUSED: Words = Words::new(
    "That didn't work",
    "The service refused this request. Try again, or start a new conversation.",
    Some(Retry),
);
