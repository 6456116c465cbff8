//! Secret tokens: a new one drawn at random, and the SHA-256 the database keeps of it
//! (company API tokens, label links).

use rand::RngCore;
use sha2::{Digest, Sha256};

/// A freshly generated API token. The plain value exists only here; the database
/// keeps its SHA-256.
pub struct IssuedToken(pub String);

pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

pub(crate) fn generate_token() -> IssuedToken {
    IssuedToken(random_token())
}

/// 32 random bytes in hex: a session's or a link's secret.
pub(crate) fn random_token() -> String {
    let mut bytes = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    hex::encode(bytes)
}
