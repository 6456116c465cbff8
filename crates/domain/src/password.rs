//! The rule for owner passwords, the same in the console's sign-up and on the command
//! line: surrounding white space is not part of a password (forms and pasted lines
//! carry it by accident), and what remains has 10 characters to 1024 bytes.

/// The fewest characters a password may have.
pub const MIN_CHARS: usize = 10;
/// The most bytes a password may have (argon2 takes any length; this bounds the work).
pub const MAX_BYTES: usize = 1024;

/// The password as it is hashed and checked, or what is wrong with it.
pub fn owner_password(raw: &str) -> Result<&str, String> {
    let password = raw.trim();
    if password.chars().count() < MIN_CHARS {
        Err(format!("is too short (at least {MIN_CHARS} characters)"))
    } else if password.len() > MAX_BYTES {
        Err(format!("is too long (at most {MAX_BYTES} bytes)"))
    } else {
        Ok(password)
    }
}

/// A password offered at log-in, trimmed as it was when it was set.
pub fn offered(raw: &str) -> &str {
    raw.trim()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trimmed_then_measured() {
        assert_eq!(owner_password("  correct horse  \n"), Ok("correct horse"));
        assert!(
            owner_password("   short   ").is_err(),
            "the spaces around do not count"
        );
        assert!(owner_password(&"x".repeat(1025)).is_err());
        assert_eq!(offered(" correct horse\r\n"), "correct horse");
    }
}
