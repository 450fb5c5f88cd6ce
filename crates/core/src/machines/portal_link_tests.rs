//! A new computer asked for with an API key: the service makes it only on its web portal and
//! says where (`session_required` with `createUrl`). The person reads that, with the page as a
//! link, never a sign-in they cannot do anything with.

use porthole_client::{Client, ClientConfig, Credential};
use porthole_sim::{Config, Sim};

use crate::error::problem::web_link;
use crate::error::{AppError, UiAction, UiCode, UiError};

#[tokio::test]
async fn a_new_computer_refused_to_a_key_offers_the_portals_page() {
    let sim = Sim::start(Config::default())
        .await
        .expect("the simulator starts");
    let key = sim.account("ada").api_key.clone().expect("a key");
    let client = Client::with_config(
        &sim.base_url,
        Credential::api_key(&key).unwrap(),
        ClientConfig::default(),
    )
    .unwrap();
    let refused = client
        .machines()
        .create(Some("Office box"))
        .await
        .expect_err("a key cannot make a computer");
    let shown = UiError::from(AppError::Client(refused));
    assert_eq!(shown.code, UiCode::CreateOnPortal);
    assert_eq!(shown.title, "Make the computer on the web portal");
    assert!(shown.detail.contains("web portal"), "{}", shown.detail);
    assert_eq!(
        shown.link.as_deref(),
        Some(format!("{}/portal/computers/new", sim.base_url).as_str()),
        "the service's page is the way out"
    );
    assert_ne!(shown.action, Some(UiAction::SignIn));
}

#[test]
fn only_a_web_address_is_offered_as_a_link() {
    assert_eq!(
        web_link("https://portal.example/computers/new").as_deref(),
        Some("https://portal.example/computers/new")
    );
    assert!(web_link("http://127.0.0.1:4000/portal").is_some());
    assert_eq!(web_link("javascript:alert(1)"), None);
    assert_eq!(web_link("file:///etc/passwd"), None);
    assert_eq!(web_link("portal/computers/new"), None);
}
