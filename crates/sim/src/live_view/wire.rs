//! Building the Guacamole instructions of a desktop stream and packing them into WebSocket
//! text frames. Encoding goes through `porthole_live::codec` (the one encoder of the
//! project); this module decides what to say: images split into `blob`s of at most 6048 raw
//! bytes, whole instructions per frame, frames of about 8 KiB like guacd's.

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use porthole_live::codec::encode_parts_into;

/// Most raw image bytes in one `blob` (8064 base64 characters).
pub const BLOB_RAW: usize = 6048;
/// Instructions are packed into frames of up to this many characters.
const FRAME_CHARS: usize = 8192;

/// Guacamole compositing modes used here.
pub const MASK_SRC: u8 = 12;
pub const MASK_OVER: u8 = 14;

/// Guacamole status codes carried by `error` (decimal on the wire).
pub mod status {
    /// 0x0208: the remote desktop is not available (the computer went to sleep).
    pub const UPSTREAM_UNAVAILABLE: u16 = 0x0208;
    /// 0x020A: the session timed out (the token expired).
    pub const SESSION_TIMEOUT: u16 = 0x020A;
    /// 0x0301: the token is missing, wrong or expired.
    pub const CLIENT_UNAUTHORIZED: u16 = 0x0301;
    /// 0x0308: the viewer said nothing for too long.
    pub const CLIENT_TIMEOUT: u16 = 0x0308;
}

/// Collects instructions and cuts them into WebSocket text frames of whole instructions.
#[derive(Default)]
pub struct FrameWriter {
    frames: Vec<String>,
    current: String,
    scratch: String,
}

impl FrameWriter {
    /// Appends one instruction.
    pub fn push<S: AsRef<str>>(&mut self, opcode: &str, args: &[S]) {
        self.scratch.clear();
        encode_parts_into(&mut self.scratch, opcode, args);
        if !self.current.is_empty() && self.current.len() + self.scratch.len() > FRAME_CHARS {
            self.frames.push(std::mem::take(&mut self.current));
        }
        self.current.push_str(&self.scratch);
    }

    /// An image drawn at `(x, y)` of `layer` once the stream ends: `img`, `blob`s, `end`.
    pub fn image(
        &mut self,
        stream: u32,
        mask: u8,
        layer: i32,
        mime: &str,
        at: (i32, i32),
        bytes: &[u8],
    ) {
        let stream = stream.to_string();
        self.push(
            "img",
            &[
                stream.as_str(),
                &mask.to_string(),
                &layer.to_string(),
                mime,
                &at.0.to_string(),
                &at.1.to_string(),
            ],
        );
        for chunk in bytes.chunks(BLOB_RAW) {
            let b64 = STANDARD.encode(chunk);
            self.push("blob", &[stream.as_str(), b64.as_str()]);
        }
        self.push("end", &[stream.as_str()]);
    }

    /// The frames collected so far, each a run of whole instructions.
    pub fn finish(mut self) -> Vec<String> {
        if !self.current.is_empty() {
            self.frames.push(self.current);
        }
        self.frames
    }
}

/// One instruction as its own frame.
pub fn single<S: AsRef<str>>(opcode: &str, args: &[S]) -> String {
    let mut out = String::new();
    encode_parts_into(&mut out, opcode, args);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use porthole_live::codec::parse_frame;

    #[test]
    fn big_images_become_bounded_blobs_in_whole_instruction_frames() {
        let mut w = FrameWriter::default();
        w.push("size", &["0", "1280", "800"]);
        let bytes: Vec<u8> = (0..20_000u32).map(|i| (i % 251) as u8).collect();
        w.image(1, MASK_OVER, 0, "image/jpeg", (0, 0), &bytes);
        w.push("sync", &["5", "1"]);
        let frames = w.finish();
        let mut decoded = Vec::new();
        let mut opcodes = Vec::new();
        for f in &frames {
            for ins in parse_frame(f) {
                let ins = ins.unwrap_or_else(|e| panic!("bad frame: {e}"));
                if ins.opcode() == "blob" {
                    let b64 = ins.arg(1).unwrap_or_default();
                    assert!(b64.len() <= 8064);
                    decoded.extend(STANDARD.decode(b64).unwrap_or_default());
                }
                opcodes.push(ins.opcode().to_owned());
            }
        }
        assert_eq!(decoded, bytes);
        assert_eq!(
            opcodes,
            ["size", "img", "blob", "blob", "blob", "blob", "end", "sync"]
        );
    }
}
