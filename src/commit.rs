//! Commitments for sealed moves in commit–reveal mode.
//!
//! The commitment is the lowercase hex SHA-256 of the ASCII message
//! `quill-sealed-v1:<move>:<nonce>`, where `<move>` is the move exactly as the engine later
//! reveals it and `<nonce>` is 64 lowercase hex digits (32 random bytes from the OS). A human can
//! check one with `printf 'quill-sealed-v1:%s:%s' MOVE NONCE | sha256sum`.

use sha2::{Digest, Sha256};

/// Prefix of every committed message; the version lets the layout change without ambiguity.
pub(crate) const DOMAIN: &str = "quill-sealed-v1";

/// A commitment to a move: the digest that is shown first, and the opening shown later.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Commitment {
    /// The move as revealed.
    pub(crate) mv: String,
    /// 64 lowercase hex digits.
    pub(crate) nonce: String,
    /// 64 lowercase hex digits of SHA-256.
    pub(crate) digest: String,
}

/// Computes the commitment digest of a move and nonce.
pub(crate) fn digest(mv: &str, nonce: &str) -> String {
    let hash = Sha256::digest(format!("{DOMAIN}:{mv}:{nonce}").as_bytes());
    hex(&hash)
}

/// Commits to a move with a fresh nonce from the operating system's random source.
///
/// # Errors
/// Fails when the operating system gives no random bytes.
pub(crate) fn commit(mv: &str) -> Result<Commitment, getrandom::Error> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)?;
    let nonce = hex(&bytes);
    Ok(Commitment {
        digest: digest(mv, &nonce),
        mv: mv.to_string(),
        nonce,
    })
}

/// Checks an opening against a commitment; case of the hex digits does not matter.
pub fn verify(digest_hex: &str, mv: &str, nonce: &str) -> bool {
    digest(mv, &nonce.to_ascii_lowercase()) == digest_hex.to_ascii_lowercase()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digest_matches_the_documented_layout() {
        // Computed independently: printf 'quill-sealed-v1:b2b3:00…00' | sha256sum
        let nonce = "0".repeat(64);
        assert_eq!(
            digest("b2b3", &nonce),
            "2a8ac5209050ac857ff8b638dc3eadd007d205f06e89b610d27776b555553bd0"
        );
    }

    #[test]
    fn commitments_verify_and_bind_the_move() {
        let c = commit("b2b3").unwrap();
        assert_eq!(c.nonce.len(), 64);
        assert!(verify(&c.digest, "b2b3", &c.nonce));
        assert!(!verify(&c.digest, "c2c3", &c.nonce));
        let other = commit("b2b3").unwrap();
        assert_ne!(c.nonce, other.nonce);
    }
}
