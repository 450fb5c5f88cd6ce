//! Uploads: stored names, MIME types, size, quota and rate limits.
use crate::support::*;

#[tokio::test]
async fn uploads_store_safe_names_mime_and_enforce_limits() {
    let p = start().await;
    let (s, b) = send(
        p.post("/v1/agents/upload", "ada")
            .header("x-filename", "my%20report%20(1).pdf")
            .header("content-type", "text/plain")
            .body("%PDF-1.4"),
    )
    .await;
    assert_eq!(s, 200);
    let name = b["name"].as_str().unwrap();
    assert!(
        name.starts_with("my_report__1_-") && name.ends_with(".pdf"),
        "{name}"
    );
    assert_eq!(b["path"], format!("uploads/{name}"));
    assert_eq!(b["mime"], "application/pdf", "Content-Type is ignored");
    assert_eq!(b["size"], 8);
    assert!(b["fileId"].is_string());
    let (_, b) = send(
        p.post("/v1/agents/upload", "ada")
            .header("x-filename", "tool.exe")
            .body("MZ"),
    )
    .await;
    assert_eq!(b["mime"], "application/octet-stream");
    let (s, b) = send(p.post("/v1/agents/upload", "ada").body("data")).await;
    assert_eq!(
        (s, b["error"].as_str()),
        (400, Some("x-filename header is required."))
    );
    let (s, _) = send(
        p.post("/v1/agents/upload", "ada")
            .header("x-filename", "empty.txt")
            .body(""),
    )
    .await;
    assert_eq!(s, 400);
    let big = vec![0u8; 25 * 1024 * 1024 + 1];
    let (s, b) = send(
        p.post("/v1/agents/upload", "ada")
            .header("x-filename", "big.bin")
            .body(big),
    )
    .await;
    assert_eq!(
        (s, b["error"].as_str()),
        (413, Some("File too large. Maximum is 25MB."))
    );
    // Free plan quota is 30 MB.
    let part = vec![1u8; 20 * 1024 * 1024];
    let (s, _) = send(
        p.post("/v1/agents/upload", "fred")
            .header("x-filename", "a.bin")
            .body(part.clone()),
    )
    .await;
    assert_eq!(s, 200);
    let (s, b) = send(
        p.post("/v1/agents/upload", "fred")
            .header("x-filename", "b.bin")
            .body(part),
    )
    .await;
    assert_eq!(
        (s, b["error"].as_str()),
        (409, Some("storage_quota_exceeded"))
    );
    for _ in 0..30 {
        p.post("/v1/agents/upload", "ulla")
            .header("x-filename", "n.txt")
            .body("x")
            .send()
            .await
            .unwrap();
    }
    let res = p
        .post("/v1/agents/upload", "ulla")
        .header("x-filename", "n.txt")
        .body("x")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 429);
}
