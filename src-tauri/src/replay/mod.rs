//! Step-by-step replay of a recorded task (`porthole_core::replay`), and the bytes of a
//! picture as the page receives them: raw JPEG in an `ArrayBuffer`, never a URL that needs
//! a credential.

pub use porthole_core::replay::*;

pub mod commands;

use tauri::ipc::{InvokeResponseBody, IpcResponse};

/// Image bytes sent to the page as an `ArrayBuffer`, not as JSON.
pub struct ImageBytes(pub Vec<u8>);

impl IpcResponse for ImageBytes {
    fn body(self) -> tauri::Result<InvokeResponseBody> {
        Ok(InvokeResponseBody::Raw(self.0))
    }
}

impl specta::Type for ImageBytes {
    fn definition(types: &mut specta::Types) -> specta::datatype::DataType {
        <specta_typescript::Unknown as specta::Type>::definition(types)
    }
}
