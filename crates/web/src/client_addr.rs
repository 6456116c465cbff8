//! The client's address, for throttling log-ins and sign-ups: the peer's, unless the
//! peer is a proxy named by `--trusted-proxy`. Then `X-Forwarded-For` is read from the
//! right (the entries nearest this server, written by proxies we trust) and the first
//! address that is not a trusted proxy is the client. Entries further left were
//! written by the client itself and are never believed.

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use std::net::{IpAddr, SocketAddr};
use std::str::FromStr;

use crate::state::AppState;

/// An address or a network (`10.0.0.0/8`, `fd00::/8`, `127.0.0.1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IpRange {
    network: IpAddr,
    prefix: u8,
}

impl FromStr for IpRange {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || format!("{s:?} is not an IP address or network (e.g. 10.0.0.1 or 10.0.0.0/8)");
        let (addr, prefix) = match s.trim().split_once('/') {
            Some((a, p)) => (a, Some(p.parse::<u8>().map_err(|_| bad())?)),
            None => (s.trim(), None),
        };
        let network: IpAddr = addr.parse().map_err(|_| bad())?;
        let max = if network.is_ipv4() { 32 } else { 128 };
        let prefix = prefix.unwrap_or(max);
        if prefix > max {
            return Err(bad());
        }
        Ok(IpRange { network, prefix })
    }
}

impl IpRange {
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = match ip {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
            v4 => v4,
        };
        match (self.network, ip) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix))
                    .unwrap_or(0);
                u32::from(net) & mask == u32::from(ip) & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.prefix))
                    .unwrap_or(0);
                u128::from(net) & mask == u128::from(ip) & mask
            }
            _ => false,
        }
    }
}

/// The proxies whose `X-Forwarded-For` is believed; none by default.
#[derive(Debug, Clone, Default)]
pub struct TrustedProxies(pub Vec<IpRange>);

impl TrustedProxies {
    fn trusts(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|r| r.contains(ip))
    }

    /// The client behind `peer`, given the `X-Forwarded-For` entries in order.
    pub fn client(&self, peer: IpAddr, forwarded: &[&str]) -> String {
        if !self.trusts(peer) {
            return peer.to_string();
        }
        for entry in forwarded.iter().rev() {
            match entry.parse::<IpAddr>() {
                Ok(ip) if self.trusts(ip) => {}
                Ok(ip) => return ip.to_string(),
                // Not an address: whatever wrote it, it is not a proxy of ours.
                Err(_) => return (*entry).to_owned(),
            }
        }
        // Every hop is a trusted proxy: the leftmost is as far as we can see.
        forwarded
            .first()
            .map_or_else(|| peer.to_string(), |f| (*f).to_owned())
    }
}

/// The client's address as the throttles key it.
pub struct ClientAddr(pub String);

impl FromRequestParts<AppState> for ClientAddr {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let Some(peer) = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip())
        else {
            return Ok(ClientAddr("unknown".to_owned()));
        };
        let forwarded: Vec<&str> = parts
            .headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .take(64)
            .collect();
        Ok(ClientAddr(
            state
                .inner()
                .config
                .trusted_proxies
                .client(peer, &forwarded),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn ranges() {
        let r: IpRange = "10.0.0.0/8".parse().unwrap();
        assert!(r.contains(ip("10.200.1.1")));
        assert!(!r.contains(ip("11.0.0.1")));
        assert!(r.contains(ip("::ffff:10.1.2.3")), "IPv4-mapped IPv6");
        let one: IpRange = "127.0.0.1".parse().unwrap();
        assert!(one.contains(ip("127.0.0.1")) && !one.contains(ip("127.0.0.2")));
        let v6: IpRange = "fd00::/8".parse().unwrap();
        assert!(v6.contains(ip("fd12::1")) && !v6.contains(ip("fe80::1")));
        let all: IpRange = "0.0.0.0/0".parse().unwrap();
        assert!(all.contains(ip("8.8.8.8")));
        for bad in ["10.0.0.0/33", "x", "10.0.0/8", "::/129", ""] {
            assert!(bad.parse::<IpRange>().is_err(), "{bad}");
        }
    }

    #[test]
    fn the_rightmost_untrusted_address_is_the_client() {
        let none = TrustedProxies::default();
        assert_eq!(
            none.client(ip("127.0.0.1"), &["6.6.6.6"]),
            "127.0.0.1",
            "nothing is trusted by default, loopback included"
        );
        let proxies = TrustedProxies(vec![
            "127.0.0.1".parse().unwrap(),
            "10.0.0.0/8".parse().unwrap(),
        ]);
        assert_eq!(
            proxies.client(ip("203.0.113.9"), &["6.6.6.6"]),
            "203.0.113.9",
            "an untrusted peer's header is ignored"
        );
        assert_eq!(
            proxies.client(ip("127.0.0.1"), &["6.6.6.6", "198.51.100.7"]),
            "198.51.100.7",
            "what the client wrote on the left is ignored"
        );
        assert_eq!(
            proxies.client(ip("127.0.0.1"), &["6.6.6.6", "198.51.100.7", "10.1.1.1"]),
            "198.51.100.7"
        );
        assert_eq!(proxies.client(ip("127.0.0.1"), &[]), "127.0.0.1");
        assert_eq!(
            proxies.client(ip("127.0.0.1"), &["10.0.0.2", "10.0.0.3"]),
            "10.0.0.2"
        );
    }
}
