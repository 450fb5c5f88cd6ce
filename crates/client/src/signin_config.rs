//! Where and as whom Porthole signs in: Google's OAuth client and Firebase's web API key, and
//! the four addresses of the flow. The real service's values belong to its makers' Firebase
//! project and are supplied when the app is built, never kept in the repository; the
//! simulator plays all four addresses at its own base with credentials of its own.

use crate::credential::Secret;

/// Google's authorization page for desktop apps.
pub const GOOGLE_AUTHORIZE_URL: &str = "https://accounts.google.com/o/oauth2/v2/auth";
/// Google's token endpoint.
pub const GOOGLE_TOKEN_URL: &str = "https://oauth2.googleapis.com/token";
/// Firebase Authentication's Identity Toolkit (`/v1/accounts:signInWithIdp` under it).
pub const IDENTITY_TOOLKIT_BASE: &str = "https://identitytoolkit.googleapis.com";
/// Firebase's Secure Token service (`/v1/token` under it).
pub const SECURE_TOKEN_BASE: &str = "https://securetoken.googleapis.com";

/// Everything the browser sign-in needs. Its `Debug` shows no secret.
#[derive(Clone, Debug)]
pub struct SignInConfig {
    /// The OAuth client id of the desktop app at Google.
    pub google_client_id: String,
    /// A desktop client's secret: Google says it is not treated as a secret, but it stays one
    /// here all the same (never logged).
    pub google_client_secret: Secret,
    /// The Firebase project's web API key.
    pub firebase_api_key: Secret,
    pub google_authorize_url: String,
    pub google_token_url: String,
    pub identity_toolkit_base: String,
    pub secure_token_base: String,
}

impl SignInConfig {
    /// The real addresses, with the given credentials.
    pub fn google_and_firebase(
        google_client_id: &str,
        google_client_secret: &str,
        firebase_api_key: &str,
    ) -> Self {
        Self {
            google_client_id: google_client_id.to_owned(),
            google_client_secret: Secret::new(google_client_secret),
            firebase_api_key: Secret::new(firebase_api_key),
            google_authorize_url: GOOGLE_AUTHORIZE_URL.to_owned(),
            google_token_url: GOOGLE_TOKEN_URL.to_owned(),
            identity_toolkit_base: IDENTITY_TOOLKIT_BASE.to_owned(),
            secure_token_base: SECURE_TOKEN_BASE.to_owned(),
        }
    }

    /// The four addresses, for checking them all before anything is sent.
    pub fn addresses(&self) -> [&str; 4] {
        [
            &self.google_authorize_url,
            &self.google_token_url,
            &self.identity_toolkit_base,
            &self.secure_token_base,
        ]
    }
}
