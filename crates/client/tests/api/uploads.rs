use std::sync::{Arc, Mutex};

use porthole_client::messages::{MessageOutcome, MessageRequest};
use porthole_client::uploads::MAX_UPLOAD_BYTES;
use porthole_client::{Error, ErrorCode, InputError};

use crate::support::*;

#[tokio::test]
async fn an_upload_reports_progress_and_attaches_to_a_message() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = seen.clone();
    let bytes = vec![b'a'; 300 * 1024];
    let upload = ada
        .uploads()
        .upload(
            "résumé final?.txt",
            bytes,
            Some(Arc::new(move |sent, total| {
                sink.lock().unwrap().push((sent, total))
            })),
        )
        .await
        .unwrap();
    assert_eq!(upload.size, 300 * 1024);
    assert_eq!(upload.mime, "text/plain");
    assert!(upload.path.starts_with("uploads/"));
    assert!(upload.file_id.is_some());
    let seen = seen.lock().unwrap().clone();
    assert!(seen.len() >= 3, "progress in several steps: {seen:?}");
    assert!(seen.windows(2).all(|w| w[0].0 <= w[1].0), "never goes back");
    assert_eq!(seen.last(), Some(&(300 * 1024, 300 * 1024)));

    let laptop = machine(&ada, "Design laptop").await;
    let mut request = MessageRequest::new("Summarise the attached file", &laptop);
    request.attachments = vec![upload];
    let outcome = ada.messages().send(&request).await.unwrap();
    assert!(matches!(outcome, MessageOutcome::Started(_)));
}

#[tokio::test]
async fn bad_files_are_refused_before_sending() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let before = ada.budget_remaining(porthole_client::Limit::Uploads);
    let empty = ada
        .uploads()
        .upload("a.txt", Vec::new(), None)
        .await
        .unwrap_err();
    assert!(matches!(empty, Error::Input(InputError::EmptyFile)));
    assert_eq!(empty.code(), ErrorCode::EmptyFile);
    let big = vec![0u8; MAX_UPLOAD_BYTES as usize + 1];
    let too_big = ada
        .uploads()
        .upload("big.bin", big, None)
        .await
        .unwrap_err();
    assert_eq!(too_big.code(), ErrorCode::FileTooLarge);
    assert_eq!(
        ada.budget_remaining(porthole_client::Limit::Uploads),
        before,
        "nothing sent"
    );
}

#[tokio::test]
async fn storage_quota_is_a_typed_error() {
    let sim = sim().await;
    let fred = client(&sim, "fred");
    let chunk = vec![7u8; 20 * 1024 * 1024];
    fred.uploads()
        .upload("one.bin", chunk.clone(), None)
        .await
        .unwrap();
    let err = fred
        .uploads()
        .upload("two.bin", chunk, None)
        .await
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::StorageQuotaExceeded);
    assert_eq!(err.api().unwrap().status, 409);
}

#[tokio::test]
async fn a_file_on_disk_is_uploaded_under_its_name() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let dir = std::env::temp_dir().join(format!("porthole-client-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("notes for monday.md");
    std::fs::write(&path, b"# Monday\n- call Bea\n").unwrap();
    let upload = ada.uploads().upload_file(&path, None).await.unwrap();
    assert_eq!(upload.size, 20);
    assert_eq!(upload.mime, "text/markdown");
    assert!(upload.name.contains("monday"), "{}", upload.name);
    let missing = ada
        .uploads()
        .upload_file(&dir.join("nope.txt"), None)
        .await
        .unwrap_err();
    assert_eq!(missing.code(), ErrorCode::InvalidInput);
    std::fs::remove_dir_all(&dir).unwrap();
}
