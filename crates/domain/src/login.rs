//! Who can log in: members, customers and business contacts with `login_enabled`.

/// Whether a new member can log in when the request does not say.
pub const MEMBER_DEFAULT: bool = true;
/// Whether a new customer or contact can log in when the request does not say.
pub const PERSON_DEFAULT: bool = false;

/// A person who can log in needs an e-mail to log in with. `email` is the address the
/// record will have once written; `Err` is the problem with its `email` field.
pub fn check_email(login_enabled: bool, email: Option<&str>) -> Result<(), &'static str> {
    if login_enabled && email.is_none() {
        Err("can't be blank unless login_enabled is false")
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_email_is_needed_unless_login_is_disabled() {
        assert!(check_email(true, None).is_err());
        assert!(check_email(true, Some("a@b.test")).is_ok());
        assert!(check_email(false, None).is_ok());
    }
}
