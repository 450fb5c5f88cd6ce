//! Files a person sends with a message: picked or dropped, checked, uploaded. The send itself
//! carries them (`conversations::SendRequest`); the names they are known by are kept in
//! `conversations::FileNames`.

pub mod commands;
pub mod uploads;
