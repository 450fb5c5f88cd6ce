//! Words for attached files: picking, checking and uploading them.

use super::Words;
use crate::error::UiAction::*;

pub const UPLOAD_RATE_LIMITED: Words = Words::new(
    "Thirty files an hour",
    "You can attach at most 30 files in an hour. This file was not sent; the rest of your message is still here.",
    Some(WaitUntil),
);
pub const STORAGE_QUOTA_EXCEEDED: Words = Words::new(
    "Your file storage is full",
    "This file was not sent because your account's storage is full. Remove old files in the web portal; the rest of your message is still here.",
    None,
);
pub const EMPTY_FILE: Words = Words::new(
    "This file is empty",
    "There is nothing in this file to send.",
    None,
);
pub const FILE_TOO_LARGE: Words =
    Words::new("This file is too big", "Files can be at most 25 MB.", None);
pub const UPLOAD_FAILED: Words = Words::new(
    "This file didn't upload",
    "The file could not be sent to the service. Remove it and try again; the rest of your message is still here.",
    Some(Retry),
);
pub const FILE_UNREADABLE: Words = Words::new(
    "Can't read this file",
    "Porthole could not open this file. It may have been moved, or you may not have permission to read it.",
    None,
);
pub const FOLDER_NOT_FILE: Words = Words::new(
    "Folders can't be attached",
    "Attach the files inside the folder instead.",
    None,
);
pub const NOT_A_FILE: Words = Words::new(
    "Only files can be attached",
    "This is a device or a pipe, not a file with contents Porthole can send. Attach a file instead.",
    None,
);
