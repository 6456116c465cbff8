//! Where webhooks may go. By default only to public addresses: a target that is or
//! resolves to a loopback, private, link-local (cloud metadata), shared, reserved or
//! documentation address is refused at create and at every connection, its name
//! resolved again each time, so a name that later resolves inside (DNS rebinding) is
//! refused then. `--webhook-allow-private` lifts this (tests, local setups).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::time::Duration;

/// Which addresses webhooks may go to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    PublicOnly,
    AllowPrivate,
}

/// How long resolving a target's name may take at create.
const RESOLVE_TIMEOUT: Duration = Duration::from_secs(5);

fn public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    !(ip.is_private()
        || ip.is_loopback()
        || ip.is_link_local()
        || ip.is_broadcast()
        || ip.is_documentation()
        || ip.is_unspecified()
        || ip.is_multicast()
        || a == 0
        // Shared address space (carrier-grade NAT), 100.64.0.0/10.
        || (a == 100 && (b & 0xc0) == 64)
        // IETF protocol assignments, 192.0.0.0/24.
        || (a == 192 && b == 0 && c == 0)
        // Benchmarking, 198.18.0.0/15.
        || (a == 198 && (b & 0xfe) == 18)
        // Reserved, 240.0.0.0/4.
        || a >= 240)
}

fn public_v6(ip: Ipv6Addr) -> bool {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return public_v4(v4);
    }
    let s = ip.segments();
    // NAT64 (64:ff9b::/96) carries an IPv4 address.
    if s[0] == 0x64 && s[1] == 0xff9b && s[2..6] == [0, 0, 0, 0] {
        let [a, b] = s[6].to_be_bytes();
        let [c, d] = s[7].to_be_bytes();
        return public_v4(Ipv4Addr::new(a, b, c, d));
    }
    !(ip.is_loopback()
        || ip.is_unspecified()
        || ip.is_multicast()
        // IPv4-compatible, ::/96.
        || s[..6] == [0, 0, 0, 0, 0, 0]
        // Unique local (fc00::/7), link-local (fe80::/10), site-local (fec0::/10).
        || (s[0] & 0xfe00) == 0xfc00
        || (s[0] & 0xffc0) == 0xfe80
        || (s[0] & 0xffc0) == 0xfec0
        // IETF protocol assignments (2001::/23, Teredo among them), documentation
        // (2001:db8::/32), 6to4 (2002::/16, which can carry any IPv4 address).
        || (s[0] == 0x2001 && s[1] < 0x200)
        || (s[0] == 0x2001 && s[1] == 0xdb8)
        || s[0] == 0x2002)
}

/// Whether `ip` is an address on the public internet.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => public_v4(v4),
        IpAddr::V6(v6) => public_v6(v6),
    }
}

/// The problem with sending to `addresses` of `host` under `policy`, if any.
fn refused(host: &str, addresses: &[IpAddr], policy: Policy) -> Option<String> {
    if policy == Policy::AllowPrivate {
        return None;
    }
    addresses.iter().find(|ip| !is_public(**ip)).map(|ip| {
        format!(
            "{host} is or resolves to {ip}, a loopback, private, link-local or reserved address; webhooks go only to public addresses (unless the server runs with --webhook-allow-private)"
        )
    })
}

/// The host of `url` as an address, when it is one (`https://10.0.0.1/`).
fn literal(url: &url::Url) -> Option<IpAddr> {
    match url.host()? {
        url::Host::Ipv4(ip) => Some(IpAddr::V4(ip)),
        url::Host::Ipv6(ip) => Some(IpAddr::V6(ip)),
        url::Host::Domain(_) => None,
    }
}

/// The problem with an address literal in `url`, if any (names are checked as they
/// resolve, by [`Resolver`]).
pub fn literal_refused(url: &url::Url, policy: Policy) -> Option<String> {
    let ip = literal(url)?;
    refused(&ip.to_string(), &[ip], policy)
}

/// Whether the server sends to `url`: its scheme, and (public only) every address its
/// host resolves to now. The answer is the problem, worded for the `url` field.
pub async fn check_url(url: &url::Url, policy: Policy) -> Result<(), String> {
    if url.scheme() != "https" && policy == Policy::PublicOnly {
        return Err(
            "must start with https:// (http:// only where the server runs with --webhook-allow-private)"
                .to_owned(),
        );
    }
    if policy == Policy::AllowPrivate {
        return Ok(());
    }
    if let Some(problem) = literal_refused(url, policy) {
        return Err(problem);
    }
    let Some(url::Host::Domain(host)) = url.host() else {
        return Ok(());
    };
    let port = url.port_or_known_default().unwrap_or(443);
    let addresses = resolve(host, port)
        .await
        .map_err(|e| format!("names a host that could not be resolved ({host}: {e})"))?;
    match refused(host, &addresses, policy) {
        Some(problem) => Err(problem),
        None => Ok(()),
    }
}

async fn resolve(host: &str, port: u16) -> Result<Vec<IpAddr>, String> {
    let found = tokio::time::timeout(RESOLVE_TIMEOUT, tokio::net::lookup_host((host, port)))
        .await
        .map_err(|_| "no answer in 5 s".to_owned())?
        .map_err(|e| e.to_string())?;
    let addresses: Vec<IpAddr> = found.map(|a| a.ip()).collect();
    if addresses.is_empty() {
        return Err("no address".to_owned());
    }
    Ok(addresses)
}

/// The delivery client's resolver: the system's, refusing a name any of whose
/// addresses is not public (under [`Policy::PublicOnly`]).
#[derive(Debug, Clone, Copy)]
pub struct Resolver(pub Policy);

impl reqwest::dns::Resolve for Resolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let policy = self.0;
        Box::pin(async move {
            let host = name.as_str().to_owned();
            let addresses = resolve(&host, 0).await.map_err(
                |e| -> Box<dyn std::error::Error + Send + Sync> {
                    format!("{host} could not be resolved: {e}").into()
                },
            )?;
            if let Some(problem) = refused(&host, &addresses, policy) {
                return Err(problem.into());
            }
            let addrs: reqwest::dns::Addrs =
                Box::new(addresses.into_iter().map(|ip| SocketAddr::new(ip, 0)));
            Ok(addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inside_addresses_are_not_public() {
        for inside in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "255.255.255.255",
            "::1",
            "::",
            "fd00:ec2::254",
            "fe80::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "64:ff9b::a00:1",
            "2002:7f00:1::",
            "2001:db8::1",
        ] {
            assert!(!is_public(inside.parse().unwrap()), "{inside}");
        }
        for outside in [
            "1.1.1.1",
            "93.184.216.34",
            "2606:4700::1111",
            "64:ff9b::101:101",
        ] {
            assert!(is_public(outside.parse().unwrap()), "{outside}");
        }
    }

    #[tokio::test]
    async fn refused_at_create() {
        let check = |u: &str| {
            let url = url::Url::parse(u).unwrap();
            async move { check_url(&url, Policy::PublicOnly).await }
        };
        assert!(
            check("http://example.com/")
                .await
                .unwrap_err()
                .contains("https://")
        );
        assert!(
            check("https://127.0.0.1/")
                .await
                .unwrap_err()
                .contains("127.0.0.1")
        );
        assert!(
            check("https://[::1]:8443/")
                .await
                .unwrap_err()
                .contains("::1")
        );
        assert!(
            check("https://localhost/hook")
                .await
                .unwrap_err()
                .contains("localhost")
        );
        let allowed = url::Url::parse("http://127.0.0.1:9/").unwrap();
        assert_eq!(check_url(&allowed, Policy::AllowPrivate).await, Ok(()));
    }
}
