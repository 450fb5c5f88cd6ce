//! Instructions: the owned form ([`Instruction`]) and the borrowed view the hot path uses
//! ([`InstructionRef`]).

use super::encode::encode_parts_into;
use super::scan::{advance_chars, read_length};

/// One Guacamole instruction, owning its text.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Instruction {
    pub opcode: String,
    pub args: Vec<String>,
}

impl Instruction {
    /// An instruction from its opcode and arguments (`Vec<String>`, `[&str; N]`, ...).
    pub fn new<A>(opcode: impl Into<String>, args: A) -> Self
    where
        A: IntoIterator,
        A::Item: Into<String>,
    {
        Self {
            opcode: opcode.into(),
            args: args.into_iter().map(Into::into).collect(),
        }
    }

    /// The instruction in wire form, e.g. `4.sync,3.123;`.
    pub fn encode(&self) -> String {
        let mut out = String::new();
        self.encode_into(&mut out);
        out
    }

    /// Appends the wire form to `out` (reuse one buffer to avoid allocating per instruction).
    pub fn encode_into(&self, out: &mut String) {
        encode_parts_into(out, &self.opcode, &self.args);
    }
}

impl std::fmt::Display for Instruction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.encode())
    }
}

/// A parsed instruction borrowing the text it was read from: no allocation.
///
/// The text has been validated, so reading the arguments again is a cheap walk over it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InstructionRef<'a> {
    text: &'a str,
    opcode: &'a str,
    args_at: usize,
    arg_count: usize,
}

impl<'a> InstructionRef<'a> {
    /// `text` is a whole validated instruction; `opcode` the byte range of its first value.
    #[inline]
    pub(crate) fn new(text: &'a str, opcode: (usize, usize), elements: usize) -> Self {
        Self {
            text,
            opcode: text.get(opcode.0..opcode.1).unwrap_or(""),
            // The opcode's terminator follows its value.
            args_at: opcode.1 + 1,
            arg_count: elements.saturating_sub(1),
        }
    }

    /// The opcode (the empty string for the tunnel's internal instructions).
    pub fn opcode(&self) -> &'a str {
        self.opcode
    }

    /// How many arguments follow the opcode.
    pub fn arg_count(&self) -> usize {
        self.arg_count
    }

    /// The arguments in order.
    pub fn args(&self) -> Args<'a> {
        Args {
            text: self.text,
            pos: self.args_at,
            remaining: self.arg_count,
        }
    }

    /// The argument at `index`, if there is one.
    pub fn arg(&self, index: usize) -> Option<&'a str> {
        self.args().nth(index)
    }

    /// The instruction exactly as it arrived, terminator included.
    pub fn as_wire(&self) -> &'a str {
        self.text
    }

    /// An owned copy.
    pub fn to_instruction(&self) -> Instruction {
        Instruction {
            opcode: self.opcode.to_owned(),
            args: self.args().map(str::to_owned).collect(),
        }
    }
}

/// The arguments of an [`InstructionRef`].
#[derive(Debug, Clone)]
pub struct Args<'a> {
    text: &'a str,
    pos: usize,
    remaining: usize,
}

impl<'a> Iterator for Args<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        if self.remaining == 0 {
            return None;
        }
        let b = self.text.as_bytes();
        // Already validated: any failure here would mean a bug, and ends the iteration.
        let (len, at) = read_length(b, self.pos).ok()??;
        let end = advance_chars(b, at, len).ok()?;
        let value = self.text.get(at..end)?;
        self.pos = end + 1;
        self.remaining -= 1;
        Some(value)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl ExactSizeIterator for Args<'_> {}
