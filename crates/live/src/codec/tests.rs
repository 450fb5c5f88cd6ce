//! Codec tests: wire examples from the protocol notes, every limit, and properties (round trip
//! under any chunking, garbage never panics, chunked parsing agrees with whole-frame parsing).

use super::*;
use proptest::prelude::*;

fn frame(text: &str) -> Vec<Result<Instruction, CodecError>> {
    parse_frame(text)
        .map(|r| r.map(|i| i.to_instruction()))
        .collect()
}

fn chunked(text: &[u8], cuts: &[usize]) -> Vec<Result<Instruction, CodecError>> {
    let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (text.len() + 1)).collect();
    cuts.sort_unstable();
    cuts.push(text.len());
    let mut parser = Parser::new();
    let mut out = Vec::new();
    let mut last = 0;
    let mut handed_out = 0;
    for cut in cuts {
        let fed = parser.feed(&text[last..cut], |i| {
            handed_out += i.as_wire().len();
            out.push(Ok(i.to_instruction()));
        });
        last = cut;
        if let Err(e) = fed {
            out.push(Err(e));
            break;
        }
        // Nothing is held back but the unfinished end of the stream.
        assert_eq!(parser.pending_len(), cut - handed_out);
    }
    out
}

/// Feeds one piece of text; what it completed, then the error if any.
fn feed_str(parser: &mut Parser, text: &str) -> Vec<Result<Instruction, CodecError>> {
    let mut out = Vec::new();
    if let Err(e) = parser.feed_str(text, |i| out.push(Ok(i.to_instruction()))) {
        out.push(Err(e));
    }
    out
}

#[test]
fn encodes_the_viewer_messages() {
    assert_eq!(
        Instruction::new("sync", ["1234"]).encode(),
        "4.sync,4.1234;"
    );
    assert_eq!(
        Instruction::new("nop", Vec::<String>::new()).encode(),
        "3.nop;"
    );
    assert_eq!(
        Instruction::new("", ["ping", "1700000000000"]).encode(),
        "0.,4.ping,13.1700000000000;"
    );
    let mut out = String::from("x");
    encode_parts_into(&mut out, "size", &["0", "1280", "800"]);
    assert_eq!(out, "x4.size,1.0,4.1280,3.800;");
}

#[test]
fn lengths_count_code_points_not_bytes() {
    let i = Instruction::new("name", ["héllo €😀", ""]);
    assert_eq!(i.encode(), "4.name,8.héllo €😀,0.;");
    assert_eq!(frame(&i.encode()), vec![Ok(i)]);
    // A byte count where a code-point count belongs is caught.
    assert!(matches!(
        frame("4.name,9.héllo;")[..],
        [Err(CodecError::Truncated { .. })]
    ));
    assert!(matches!(
        frame("4.name,6.héllo;x")[..],
        [Err(CodecError::BadTerminator { offset: 16 })]
    ));
}

#[test]
fn borrowed_view_reads_opcode_and_args() {
    let text = "0.,36.6e2d1b6c-7d45-4c1c-9d6b-9f3a2a1b0c4d;4.sync,3.123,1.1;";
    let all: Vec<_> = parse_frame(text).collect::<Result<_, _>>().unwrap();
    assert_eq!(all[0].opcode(), "");
    assert_eq!(all[0].arg(0), Some("6e2d1b6c-7d45-4c1c-9d6b-9f3a2a1b0c4d"));
    assert_eq!(all[1].opcode(), "sync");
    assert_eq!(all[1].args().collect::<Vec<_>>(), ["123", "1"]);
    assert_eq!(all[1].arg_count(), 2);
    assert_eq!(all[1].arg(2), None);
    assert_eq!(all[1].as_wire(), "4.sync,3.123,1.1;");
}

#[test]
fn malformed_input_is_named() {
    use CodecError::*;
    let first = |t: &str| frame(t).into_iter().find_map(Result::err);
    assert_eq!(first("abc;"), Some(ExpectedLength { offset: 0 }));
    assert_eq!(first("3.nop;x"), Some(ExpectedLength { offset: 6 }));
    assert_eq!(first(".nop;"), Some(ExpectedLength { offset: 0 }));
    assert_eq!(first("3.nop,"), Some(Truncated { offset: 0 }));
    assert_eq!(first("3.nop"), Some(Truncated { offset: 0 }));
    assert_eq!(first("3.nopx"), Some(BadTerminator { offset: 5 }));
    assert_eq!(
        first("000003.nop;"),
        Some(LengthTooManyDigits { offset: 0 })
    );
    assert_eq!(frame("00003.nop;").len(), 1);
    assert_eq!(
        first("8193.x"),
        Some(ElementTooLong {
            offset: 0,
            chars: 8193
        })
    );
    let big = "a".repeat(MAX_ELEMENT_CHARS);
    assert!(frame(&Instruction::new("blob", ["0", &big]).encode())[0].is_ok());
    let at_limit = Instruction::new("x", vec!["1"; MAX_ELEMENTS - 1]).encode();
    assert!(frame(&at_limit)[0].is_ok());
    let over = Instruction::new("x", vec!["1"; MAX_ELEMENTS]).encode();
    assert_eq!(
        first(&format!("3.nop;{over}")),
        Some(TooManyElements { offset: 6 })
    );
}

#[test]
fn a_frame_stops_at_its_first_error() {
    let got = frame("3.nop;zz;3.nop;");
    assert_eq!(got.len(), 2);
    assert!(got[0].is_ok() && got[1].is_err());
}

#[test]
fn parser_reassembles_split_instructions_and_characters() {
    let text = "4.sync,3.123;4.name,2.é€;";
    let bytes = text.as_bytes();
    for cut in 0..=bytes.len() {
        let got = chunked(bytes, &[cut]);
        assert_eq!(got, frame(text), "cut at {cut}");
    }
    let mut p = Parser::new();
    assert!(feed_str(&mut p, "4.sy").is_empty());
    assert_eq!(p.pending_len(), 4);
    assert_eq!(
        feed_str(&mut p, "nc,1.1;"),
        vec![Ok(Instruction::new("sync", ["1"]))]
    );
    assert_eq!(p.pending_len(), 0);
}

#[test]
fn parser_reports_errors_with_stream_offsets_then_stops() {
    let mut p = Parser::new();
    assert!(matches!(feed_str(&mut p, "3.nop;")[..], [Ok(_)]));
    assert!(matches!(feed_str(&mut p, "3.nop;3.no")[..], [Ok(_)]));
    let bad = Err(CodecError::BadTerminator { offset: 17 });
    assert_eq!(feed_str(&mut p, "px;"), vec![bad.clone()]);
    assert!(p.has_failed());
    assert_eq!(feed_str(&mut p, "3.nop;"), vec![bad]);
}

#[test]
fn parser_rejects_bytes_that_are_not_utf8() {
    let mut p = Parser::new();
    let mut got = Vec::new();
    let fed = p.feed(b"3.nop;4.sy\xff", |i| got.push(i.to_instruction()));
    assert_eq!(got, [Instruction::new("nop", Vec::<String>::new())]);
    assert_eq!(fed, Err(CodecError::InvalidUtf8 { offset: 10 }));
    assert_eq!(
        p.feed(b"3.nop;", |_| unreachable!("nothing after an error")),
        Err(CodecError::InvalidUtf8 { offset: 10 })
    );
}

#[test]
fn parser_rejects_a_character_cut_off_then_broken() {
    // "é" is C3 A9: its first byte ends one chunk; what follows cannot finish it.
    let mut p = Parser::new();
    assert_eq!(p.feed(b"4.name,1.\xc3", |_| {}), Ok(()));
    assert_eq!(
        p.feed(b"(;", |_| {}),
        Err(CodecError::InvalidUtf8 { offset: 9 })
    );
    let mut p = Parser::new();
    assert_eq!(p.feed(b"4.name,1.\xc3", |_| {}), Ok(()));
    assert_eq!(
        feed_str(&mut p, "\u{a9};"),
        vec![Err(CodecError::InvalidUtf8 { offset: 9 })]
    );
}

#[test]
fn parser_buffers_no_more_than_one_bounded_instruction() {
    let mut p = Parser::new();
    feed_str(&mut p, "5.");
    for _ in 0..100 {
        if !feed_str(&mut p, "abcde").is_empty() {
            break;
        }
    }
    assert!(p.has_failed());
    assert!(p.pending_len() < 16);
}

#[test]
fn parser_hands_out_instructions_borrowed_from_the_chunk() {
    // The instruction cut by the first chunk's end is the only one copied (into the parser);
    // every other one is read in place.
    let first = b"4.sync,1.1;3.nop;4.si".to_vec();
    let second = b"ze,1.0;3.nop;4.sync,1.2;".to_vec();
    let mut p = Parser::new();
    let mut in_chunk = Vec::new();
    for chunk in [&first, &second] {
        let range = chunk.as_ptr_range();
        p.feed(chunk, |i| {
            in_chunk.push((i.opcode().to_owned(), range.contains(&i.as_wire().as_ptr())));
        })
        .unwrap();
    }
    let expected = [
        ("sync", true),
        ("nop", true),
        ("size", false),
        ("nop", true),
        ("sync", true),
    ];
    let expected: Vec<_> = expected
        .iter()
        .map(|(o, b)| ((*o).to_owned(), *b))
        .collect();
    assert_eq!(in_chunk, expected);
}

#[test]
fn a_long_instruction_in_small_chunks_is_carried_alone() {
    let blob = "QUJD".repeat(2000);
    let text = Instruction::new("blob", ["1", blob.as_str()]).encode() + "3.nop;";
    let mut p = Parser::new();
    let mut got = Vec::new();
    for chunk in text.as_bytes().chunks(7) {
        p.feed(chunk, |i| got.push(i.to_instruction())).unwrap();
    }
    assert_eq!(
        got,
        [
            Instruction::new("blob", ["1", blob.as_str()]),
            Instruction::new("nop", Vec::<String>::new())
        ]
    );
    assert_eq!(p.pending_len(), 0);
}

fn any_instruction() -> impl Strategy<Value = Instruction> {
    let element = prop_oneof![
        "[a-z]{0,8}",
        "[A-Za-z0-9+/=]{0,200}",
        any::<String>().prop_map(|s| s.chars().take(40).collect()),
        Just("1.,;.".to_owned()),
    ];
    (element.clone(), prop::collection::vec(element, 0..8))
        .prop_map(|(op, args)| Instruction::new(op, args))
}

proptest! {
    #[test]
    fn round_trips_under_any_chunking(
        list in prop::collection::vec(any_instruction(), 0..12),
        cuts in prop::collection::vec(any::<usize>(), 0..12),
    ) {
        let mut text = String::new();
        for i in &list {
            i.encode_into(&mut text);
        }
        let expected: Vec<_> = list.into_iter().map(Ok).collect();
        prop_assert_eq!(&frame(&text), &expected);
        prop_assert_eq!(&chunked(text.as_bytes(), &cuts), &expected);
    }

    #[test]
    fn round_trips_in_tiny_chunks(
        list in prop::collection::vec(any_instruction(), 0..6),
        size in 1usize..6,
    ) {
        let mut text = String::new();
        for i in &list {
            i.encode_into(&mut text);
        }
        let cuts: Vec<usize> = (size..text.len()).step_by(size).collect();
        let expected: Vec<_> = list.into_iter().map(Ok).collect();
        prop_assert_eq!(&chunked(text.as_bytes(), &cuts), &expected);
    }

    #[test]
    fn tiny_chunks_give_the_whole_text_answer_on_garbage(
        prefix in prop::collection::vec(any_instruction(), 0..3),
        garbage in prop_oneof![any::<String>(), "[0-9.,;a\u{e9}\u{1f600}]{0,40}"],
        size in 1usize..6,
    ) {
        let mut text = String::new();
        for i in &prefix {
            i.encode_into(&mut text);
        }
        text.push_str(&garbage);
        let mut whole = frame(&text);
        if matches!(whole.last(), Some(Err(CodecError::Truncated { .. }))) {
            whole.pop();
        }
        let cuts: Vec<usize> = (size..text.len()).step_by(size).collect();
        prop_assert_eq!(&chunked(text.as_bytes(), &cuts), &whole);
    }

    #[test]
    fn garbage_never_panics_and_chunking_does_not_change_the_answer(
        prefix in prop::collection::vec(any_instruction(), 0..3),
        garbage in prop_oneof![any::<String>(), "[0-9.,;a]{0,40}"],
        cuts in prop::collection::vec(any::<usize>(), 0..8),
    ) {
        let mut text = String::new();
        for i in &prefix {
            i.encode_into(&mut text);
        }
        text.push_str(&garbage);
        let whole = frame(&text);
        let mut split = chunked(text.as_bytes(), &cuts);
        // A frame cut short is an error; a stream cut short is just waiting for more.
        let mut whole_trimmed = whole.clone();
        if matches!(whole.last(), Some(Err(CodecError::Truncated { .. }))) {
            whole_trimmed.pop();
        }
        prop_assert_eq!(&mut split, &whole_trimmed);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300), cuts in prop::collection::vec(any::<usize>(), 0..8)) {
        let _ = chunked(&bytes, &cuts);
        if let Ok(text) = std::str::from_utf8(&bytes) {
            let _ = frame(text);
        }
    }
}
