//! Writing instructions in wire form.

/// Appends one element, `LEN.VALUE`, with `LEN` in code points.
#[inline]
pub fn encode_element(out: &mut String, value: &str) {
    push_decimal(out, value.chars().count());
    out.push('.');
    out.push_str(value);
}

/// Appends a whole instruction without building an [`super::Instruction`] first.
pub fn encode_parts_into<S: AsRef<str>>(out: &mut String, opcode: &str, args: &[S]) {
    encode_element(out, opcode);
    for arg in args {
        out.push(',');
        encode_element(out, arg.as_ref());
    }
    out.push(';');
}

fn push_decimal(out: &mut String, mut n: usize) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[i..] {
        out.push(char::from(d));
    }
}
