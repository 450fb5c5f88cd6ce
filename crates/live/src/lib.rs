//! Live-view codec and viewer.
//!
//! - [`codec`]: the Guacamole instruction codec (parse and encode).

pub mod codec;
