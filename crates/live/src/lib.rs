//! Live-view codec and viewer.
