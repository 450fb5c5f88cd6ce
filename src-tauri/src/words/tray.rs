//! The tray menu's lines.

pub const OPEN: &str = "Open Porthole";
pub const QUIT: &str = "Quit Porthole";
pub const PAUSE_ALL_SCHEDULES: &str = "Pause all schedules";
pub const RESUME_SCHEDULES: &str = "Resume schedules";

/// "nothing needs you", "1 thing needs you", "3 things need you" (the tray's line and its
/// tooltip).
pub fn needs_you(count: u32) -> String {
    match count {
        0 => "nothing needs you".to_owned(),
        1 => "1 thing needs you".to_owned(),
        n => format!("{n} things need you"),
    }
}
