use super::*;
use proptest::prelude::*;

fn parse_chunks(chunks: &[&[u8]]) -> Vec<SseEvent> {
    let mut parser = SseParser::new();
    let mut out = Vec::new();
    for chunk in chunks {
        parser.feed(chunk, &mut out);
    }
    out
}

fn data_of(events: &[SseEvent]) -> Vec<&str> {
    events.iter().map(|e| e.data.as_str()).collect()
}

#[test]
fn lf_and_crlf_and_lone_cr_end_lines() {
    let lf = parse_chunks(&[b"data: a\n\ndata: b\n\n"]);
    let crlf = parse_chunks(&[b"data: a\r\n\r\ndata: b\r\n\r\n"]);
    let cr = parse_chunks(&[b"data: a\r\rdata: b\r\r"]);
    assert_eq!(data_of(&lf), ["a", "b"]);
    assert_eq!(data_of(&crlf), ["a", "b"]);
    assert_eq!(data_of(&cr), ["a", "b"]);
}

#[test]
fn crlf_split_between_chunks_is_one_line_end() {
    let events = parse_chunks(&[b"data: a\r", b"\n\r", b"\ndata: b\r\n", b"\r\n"]);
    assert_eq!(data_of(&events), ["a", "b"]);
}

#[test]
fn frame_split_inside_field_name_value_and_utf8() {
    let text = "data: {\"delta\":\"h\u{e9}llo \u{1F600}\"}\n\n".as_bytes();
    for cut in 0..text.len() {
        let events = parse_chunks(&[&text[..cut], &text[cut..]]);
        assert_eq!(data_of(&events), ["{\"delta\":\"h\u{e9}llo \u{1F600}\"}"]);
    }
}

#[test]
fn multi_line_data_is_joined_with_newline() {
    let events = parse_chunks(&[b"data: one\ndata:two\ndata:  three\n\n"]);
    assert_eq!(data_of(&events), ["one\ntwo\n three"]);
}

#[test]
fn comments_and_unknown_fields_are_ignored() {
    let events = parse_chunks(&[b": keep-alive\n\nretry: 10\nfoo: bar\ndata: x\n: mid\n\n"]);
    assert_eq!(data_of(&events), ["x"]);
}

#[test]
fn event_without_data_is_not_dispatched_and_type_resets() {
    let events = parse_chunks(&[b"event: ping\n\ndata: x\n\n"]);
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].event, None);
}

#[test]
fn event_type_and_id_are_kept() {
    let events = parse_chunks(&[b"event: update\nid: 7\ndata: x\n\n"]);
    assert_eq!(events[0].event.as_deref(), Some("update"));
    assert_eq!(events[0].id.as_deref(), Some("7"));
}

#[test]
fn done_sentinel_is_recognised() {
    let events = parse_chunks(&[b"data: {}\n\ndata: [DONE]\n\n"]);
    assert!(!events[0].is_done());
    assert!(events[1].is_done());
}

#[test]
fn empty_data_line_dispatches_empty_event() {
    let events = parse_chunks(&[b"data\n\ndata:\n\n"]);
    assert_eq!(data_of(&events), ["", ""]);
}

#[test]
fn bom_at_start_is_skipped_even_when_split() {
    let events = parse_chunks(&[b"\xEF", b"\xBB", b"\xBFdata: x\n\n"]);
    assert_eq!(data_of(&events), ["x"]);
    let events = parse_chunks(&[b"\xEF\xBB\xBFdata: y\n\n"]);
    assert_eq!(data_of(&events), ["y"]);
}

#[test]
fn invalid_utf8_is_replaced_not_a_panic() {
    let events = parse_chunks(&[b"data: \xFF\xFE\n\n"]);
    assert_eq!(events[0].data, "\u{FFFD}\u{FFFD}");
}

#[test]
fn unterminated_event_is_reported_by_finish() {
    let mut parser = SseParser::new();
    let mut out = Vec::new();
    parser.feed(b"data: a\n\ndata: half", &mut out);
    assert_eq!(data_of(&out), ["a"]);
    assert!(parser.finish());
    let mut clean = SseParser::new();
    clean.feed(b"data: a\n\n", &mut out);
    assert!(!clean.finish());
}

/// A frame as the property tests build it: data lines without line-end characters.
fn arb_event() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec("[^\r\n]{0,12}", 1..4)
}

fn encode(events: &[Vec<String>], ending: &str, comments: bool) -> Vec<u8> {
    let mut text = String::new();
    for lines in events {
        if comments {
            text.push_str(": note");
            text.push_str(ending);
        }
        for line in lines {
            text.push_str("data: ");
            text.push_str(line);
            text.push_str(ending);
        }
        text.push_str(ending);
    }
    text.into_bytes()
}

proptest! {
    #[test]
    fn any_split_of_any_stream_gives_the_same_events(
        events in prop::collection::vec(arb_event(), 0..6),
        ending in prop::sample::select(vec!["\n", "\r\n", "\r"]),
        comments in any::<bool>(),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..8),
    ) {
        let bytes = encode(&events, ending, comments);
        let mut points: Vec<usize> = cuts.iter().map(|c| c.index(bytes.len() + 1)).collect();
        points.sort_unstable();
        let mut chunks = Vec::new();
        let mut start = 0;
        for point in points {
            chunks.push(&bytes[start..point]);
            start = point;
        }
        chunks.push(&bytes[start..]);
        let parsed = parse_chunks(&chunks);
        let expected: Vec<String> = events.iter().map(|lines| lines.join("\n")).collect();
        let got: Vec<String> = parsed.into_iter().map(|e| e.data).collect();
        prop_assert_eq!(got, expected);
    }

    #[test]
    fn arbitrary_bytes_never_panic(chunks in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..64), 0..8)) {
        let refs: Vec<&[u8]> = chunks.iter().map(Vec::as_slice).collect();
        let _ = parse_chunks(&refs);
    }
}
