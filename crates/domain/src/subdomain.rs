/// A company's subdomain: 1 to 63 lower-case letters, digits and hyphens, not starting
/// or ending with a hyphen (a DNS label).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subdomain(String);

impl Subdomain {
    pub fn parse(raw: &str) -> Result<Self, &'static str> {
        let s = raw.trim();
        if s.is_empty() || s.len() > 63 {
            return Err("must be 1 to 63 characters");
        }
        if !s
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        {
            return Err("may contain only lower-case letters, digits and hyphens");
        }
        if s.starts_with('-') || s.ends_with('-') {
            return Err("may not start or end with a hyphen");
        }
        Ok(Subdomain(s.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// An IANA time zone name such as `Europe/Berlin`.
pub fn parse_time_zone(raw: &str) -> Option<chrono_tz::Tz> {
    raw.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subdomains() {
        assert!(Subdomain::parse("acme-rentals2").is_ok());
        assert!(Subdomain::parse("Acme").is_err());
        assert!(Subdomain::parse("-acme").is_err());
        assert!(Subdomain::parse("ac_me").is_err());
        assert!(Subdomain::parse("").is_err());
    }
}
