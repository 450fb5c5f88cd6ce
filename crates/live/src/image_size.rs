//! Reading an image's pixel size from its header, so the viewer can tell when one image covers
//! the whole screen (and supersedes everything drawn before it).

/// Width and height of a PNG or JPEG, or `None` if the header cannot be read.
pub(crate) fn image_size(data: &[u8]) -> Option<(u32, u32)> {
    if data.starts_with(b"\x89PNG\r\n\x1a\n") {
        let w = u32::from_be_bytes(data.get(16..20)?.try_into().ok()?);
        let h = u32::from_be_bytes(data.get(20..24)?.try_into().ok()?);
        return Some((w, h));
    }
    if data.starts_with(&[0xFF, 0xD8]) {
        return jpeg_size(data);
    }
    None
}

fn jpeg_size(data: &[u8]) -> Option<(u32, u32)> {
    let mut i = 2;
    loop {
        // Markers may be padded with 0xFF fill bytes.
        while *data.get(i)? == 0xFF && *data.get(i + 1)? == 0xFF {
            i += 1;
        }
        if *data.get(i)? != 0xFF {
            return None;
        }
        let marker = *data.get(i + 1)?;
        let len = usize::from(u16::from_be_bytes([*data.get(i + 2)?, *data.get(i + 3)?]));
        // Start-of-frame markers (baseline, progressive, ...) hold the size; C4, C8 and CC are not
        // frames.
        if (0xC0..=0xCF).contains(&marker) && ![0xC4, 0xC8, 0xCC].contains(&marker) {
            let h = u16::from_be_bytes([*data.get(i + 5)?, *data.get(i + 6)?]);
            let w = u16::from_be_bytes([*data.get(i + 7)?, *data.get(i + 8)?]);
            return Some((u32::from(w), u32::from(h)));
        }
        if marker == 0xDA || len < 2 {
            return None;
        }
        i += 2 + len;
    }
}

#[cfg(test)]
mod tests {
    use super::image_size;

    #[test]
    fn reads_png_and_jpeg_headers_and_rejects_junk() {
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        png.extend_from_slice(&1280u32.to_be_bytes());
        png.extend_from_slice(&800u32.to_be_bytes());
        assert_eq!(image_size(&png), Some((1280, 800)));
        let jpeg = [
            0xFF, 0xD8, 0xFF, 0xE0, 0, 4, 0, 0, 0xFF, 0xC0, 0, 11, 8, 0x03, 0x20, 0x05, 0x00, 3,
        ];
        assert_eq!(image_size(&jpeg), Some((1280, 800)));
        assert_eq!(image_size(b"GIF89a"), None);
        assert_eq!(image_size(&[0xFF, 0xD8, 0xFF]), None);
        assert_eq!(image_size(&[0xFF, 0xD8, 0xFF, 0xE0, 0, 0]), None);
    }
}
