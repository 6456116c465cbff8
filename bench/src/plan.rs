//! Request mixes: which URIs a run cycles through, discovered from the
//! server's own list pages before the run starts.

use anyhow::{Context, Result, bail};
use clap::ValueEnum;
use hyper::{Method, Uri};
use serde_json::Value;

use crate::conn::Conn;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Mix {
    /// GET /healthz (no auth, one trivial database ping): the ceiling.
    Healthz,
    /// GET /locations/<id>.api, ids round-robin.
    LocationDetails,
    /// GET /locations/get_line_item_locations.api?page=N&status=all, pages round-robin.
    LocationList,
    /// GET /assets/classification_view.api?page=N, pages round-robin.
    GroupList,
    /// GET /assets/vendors.api?page=N, pages round-robin.
    VendorList,
    /// GET /vendors/<id>.api, ids round-robin.
    VendorDetails,
    /// GET /members.api?page=N, pages round-robin.
    MemberList,
    /// GET /members/<id>.api, ids round-robin.
    MemberDetails,
    /// GET /members.api?filter=status&filter_val=active&page=N, pages round-robin.
    MemberListActive,
    /// GET /customers.api?page=N, pages round-robin.
    CustomerList,
    /// GET /customers/<id>.api, ids round-robin: the reference for the list mixes below.
    CustomerDetails,
    /// GET /customers.api?page=1 only.
    CustomerListFirst,
    /// GET /customers.api?page=N for the last 10 pages, round-robin.
    CustomerListEnd,
    /// GET /customers.api?page=N for the 10 pages in the middle of the list, round-robin.
    CustomerListMiddle,
    /// GET /customers.api?filter=non_taxed&page=N (one customer in ten).
    CustomerListNonTaxed,
    /// GET /customers.api?filter=email&filter_val=<e-mail>, e-mails of seeded customers round-robin.
    CustomerListEmail,
    /// GET /assets/<n>.api, asset numbers round-robin: the reference for the asset mixes.
    AssetDetails,
    /// GET /assets.api?page=1 only.
    AssetListFirst,
    /// GET /assets.api?page=N for the last 10 pages, round-robin.
    AssetListEnd,
    /// GET /assets/filter.api?status=available&page=1.
    AssetFilterFirst,
    /// GET /assets/filter.api?status=available for the last 10 pages.
    AssetFilterEnd,
    /// GET /search.api?search=bench&page=1 (every seeded asset matches).
    AssetSearchFirst,
    /// GET /search.api?search=bench for the last 10 pages.
    AssetSearchEnd,
    /// PUT /assets/<n>/checkout.api then PUT /assets/<n>/checkin.api, each connection
    /// on an asset of its own: one request of the mix is half a cycle.
    AssetCheckoutCycle,
    /// Even blend of location/group/vendor details and lists.
    Catalog,
}

impl Mix {
    pub fn name(self) -> String {
        self.to_possible_value()
            .map(|v| v.get_name().to_owned())
            .unwrap_or_default()
    }

    /// The single-kind mixes this mix interleaves.
    fn parts(self) -> Vec<Mix> {
        match self {
            Mix::Catalog => vec![
                Mix::LocationDetails,
                Mix::LocationList,
                Mix::GroupList,
                Mix::VendorList,
                Mix::VendorDetails,
            ],
            single => vec![single],
        }
    }
}

/// The URIs of a run: one list per request kind. Request number `g` (counted
/// across all workers) uses kind `g % kinds` and, within it, entry
/// `(g / kinds) % len`, so kinds are evenly blended and ids/pages are hit
/// round-robin.
#[derive(Debug)]
pub struct Plan {
    kinds: Vec<Kind>,
}

#[derive(Debug)]
struct Kind {
    mix: Mix,
    method: Method,
    uris: Vec<Uri>,
}

impl Plan {
    pub fn pick(&self, g: u64) -> (&Method, &Uri) {
        let n = self.kinds.len() as u64;
        let kind = &self.kinds[(g % n) as usize];
        (
            &kind.method,
            &kind.uris[((g / n) % kind.uris.len() as u64) as usize],
        )
    }

    /// `name=count` of each kind, e.g. `location-details=100 location-list=40`.
    pub fn describe(&self) -> String {
        self.kinds
            .iter()
            .map(|k| format!("{}={}", k.mix.name(), k.uris.len()))
            .collect::<Vec<_>>()
            .join(" ")
    }

    pub fn targets(&self) -> serde_json::Map<String, Value> {
        self.kinds
            .iter()
            .map(|k| (k.mix.name(), Value::from(k.uris.len())))
            .collect()
    }

    /// Reads list pages through `conn` to find ids and page counts for `mix`.
    /// `id_pages` caps how many list pages are read to collect ids.
    /// `connections`: the workers of the run (the check-out cycle gives each its asset).
    pub async fn discover(
        conn: &mut Conn,
        mix: Mix,
        id_pages: u64,
        connections: usize,
    ) -> Result<Plan> {
        let mut kinds = Vec::new();
        for part in mix.parts() {
            let method = match part {
                Mix::AssetCheckoutCycle => Method::PUT,
                _ => Method::GET,
            };
            let uris = match part {
                Mix::Healthz => vec!["/healthz".to_owned()],
                Mix::LocationDetails => {
                    let ids = collect_ids(conn, Listing::LOCATIONS, id_pages).await?;
                    ids.iter()
                        .map(|id| format!("/locations/{id}.api"))
                        .collect()
                }
                Mix::VendorDetails => {
                    let ids = collect_ids(conn, Listing::VENDORS, id_pages).await?;
                    ids.iter().map(|id| format!("/vendors/{id}.api")).collect()
                }
                Mix::MemberDetails => {
                    let ids = collect_ids(conn, Listing::MEMBERS, id_pages).await?;
                    ids.iter().map(|id| format!("/members/{id}.api")).collect()
                }
                Mix::MemberList => page_uris(conn, Listing::MEMBERS).await?,
                Mix::MemberListActive => page_uris(conn, Listing::ACTIVE_MEMBERS).await?,
                Mix::CustomerList => page_uris(conn, Listing::CUSTOMERS).await?,
                Mix::CustomerDetails => {
                    let ids = collect_ids(conn, Listing::CUSTOMERS, id_pages).await?;
                    ids.iter()
                        .map(|id| format!("/customers/{id}.api"))
                        .collect()
                }
                Mix::CustomerListFirst => vec![Listing::CUSTOMERS.page(1)],
                Mix::CustomerListEnd => {
                    let pages = page_count(conn, Listing::CUSTOMERS).await?;
                    (pages.saturating_sub(9).max(1)..=pages)
                        .map(|n| Listing::CUSTOMERS.page(n))
                        .collect()
                }
                Mix::CustomerListMiddle => {
                    let pages = page_count(conn, Listing::CUSTOMERS).await?;
                    let from = (pages / 2).saturating_sub(4).max(1);
                    (from..=(from + 9).min(pages))
                        .map(|n| Listing::CUSTOMERS.page(n))
                        .collect()
                }
                Mix::CustomerListNonTaxed => page_uris(conn, Listing::NON_TAXED_CUSTOMERS).await?,
                Mix::CustomerListEmail => {
                    let body = Listing::CUSTOMERS.fetch(conn, 1).await?;
                    let emails: Vec<String> = body["customers"]
                        .as_array()
                        .map(|a| {
                            a.iter()
                                .filter_map(|c| c["email"].as_str().map(str::to_owned))
                                .collect()
                        })
                        .unwrap_or_default();
                    if emails.is_empty() {
                        bail!("no customer with an e-mail on the first page; seed customers first");
                    }
                    emails
                        .iter()
                        .map(|e| {
                            format!(
                                "/customers.api?filter=email&filter_val={}",
                                e.replace('@', "%40").replace('+', "%2B")
                            )
                        })
                        .collect()
                }
                Mix::LocationList => page_uris(conn, Listing::LOCATIONS).await?,
                Mix::GroupList => page_uris(conn, Listing::GROUPS).await?,
                Mix::VendorList => page_uris(conn, Listing::VENDORS).await?,
                Mix::AssetDetails => asset_numbers(conn, id_pages)
                    .await?
                    .iter()
                    .map(|n| format!("/assets/{n}.api"))
                    .collect(),
                Mix::AssetListFirst => vec![Listing::ASSETS.page(1)],
                Mix::AssetListEnd => last_pages(conn, Listing::ASSETS).await?,
                Mix::AssetFilterFirst => vec![Listing::AVAILABLE_ASSETS.page(1)],
                Mix::AssetFilterEnd => last_pages(conn, Listing::AVAILABLE_ASSETS).await?,
                Mix::AssetSearchFirst => vec![Listing::ASSET_SEARCH.page(1)],
                Mix::AssetSearchEnd => last_pages(conn, Listing::ASSET_SEARCH).await?,
                Mix::AssetCheckoutCycle => checkout_cycle(conn, connections).await?,
                Mix::Catalog => unreachable!("catalog is not a part"),
            };
            let uris = uris
                .iter()
                .map(|p| conn.target().uri(p))
                .collect::<Result<Vec<_>>>()?;
            kinds.push(Kind {
                mix: part,
                method,
                uris,
            });
        }
        Ok(Plan { kinds })
    }

    #[cfg(test)]
    fn from_paths(kinds: &[(Mix, &[&str])]) -> Plan {
        Plan {
            kinds: kinds
                .iter()
                .map(|(mix, paths)| Kind {
                    mix: *mix,
                    method: Method::GET,
                    uris: paths.iter().map(|p| p.parse().unwrap()).collect(),
                })
                .collect(),
        }
    }
}

/// A paged list endpoint.
#[derive(Debug, Clone, Copy)]
struct Listing {
    /// Name used in messages and the preferred JSON array key.
    what: &'static str,
    path: &'static str,
    /// Extra query parameters after `page=N`.
    extra: &'static str,
}

impl Listing {
    const LOCATIONS: Listing = Listing {
        what: "locations",
        path: "/locations/get_line_item_locations.api",
        extra: "&status=all",
    };
    const GROUPS: Listing = Listing {
        what: "groups",
        path: "/assets/classification_view.api",
        extra: "",
    };
    const VENDORS: Listing = Listing {
        what: "vendors",
        path: "/assets/vendors.api",
        extra: "",
    };

    const CUSTOMERS: Listing = Listing {
        what: "customers",
        path: "/customers.api",
        extra: "",
    };
    const NON_TAXED_CUSTOMERS: Listing = Listing {
        what: "customers",
        path: "/customers.api",
        extra: "&filter=non_taxed",
    };
    const ASSETS: Listing = Listing {
        what: "assets",
        path: "/assets.api",
        extra: "",
    };
    const AVAILABLE_ASSETS: Listing = Listing {
        what: "assets",
        path: "/assets/filter.api",
        extra: "&status=available",
    };
    const ASSET_SEARCH: Listing = Listing {
        what: "assets",
        path: "/search.api",
        extra: "&search=bench",
    };
    const MEMBERS: Listing = Listing {
        what: "members",
        path: "/members.api",
        extra: "",
    };
    const ACTIVE_MEMBERS: Listing = Listing {
        what: "members",
        path: "/members.api",
        extra: "&filter=status&filter_val=active",
    };

    fn page(self, n: u64) -> String {
        format!("{}?page={n}{}", self.path, self.extra)
    }

    async fn fetch(self, conn: &mut Conn, n: u64) -> Result<Value> {
        let path = self.page(n);
        let req = conn.target().get(conn.target().uri(&path)?);
        let reply = conn
            .call(req)
            .await
            .with_context(|| format!("GET {path}"))?;
        if !reply.is_success() {
            bail!("GET {path} answered {}: {}", reply.status, reply.snippet());
        }
        reply.json().with_context(|| format!("GET {path}"))
    }
}

/// The last ten pages of a list.
async fn last_pages(conn: &mut Conn, listing: Listing) -> Result<Vec<String>> {
    let pages = page_count(conn, listing).await?;
    Ok((pages.saturating_sub(9).max(1)..=pages)
        .map(|n| listing.page(n))
        .collect())
}

/// The numbers (`sequence_num`) of the assets on the first `max_pages` pages.
async fn asset_numbers(conn: &mut Conn, max_pages: u64) -> Result<Vec<i64>> {
    let mut numbers = Vec::new();
    for page in 1..=max_pages.max(1) {
        let body = Listing::ASSETS.fetch(conn, page).await?;
        let found: Vec<i64> = body["assets"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|x| x["sequence_num"].as_i64())
                    .collect()
            })
            .unwrap_or_default();
        let last = total_pages(&body).unwrap_or(1);
        let empty = found.is_empty();
        numbers.extend(found);
        if empty || page >= last {
            break;
        }
    }
    if numbers.is_empty() {
        bail!("no assets found via /assets.api; run `rentrack-bench seed --assets N` first");
    }
    Ok(numbers)
}

/// For worker `w` of `connections`: entry `w` checks asset `w` out to a member, entry
/// `w + connections` checks it in (a worker's requests are `w`, `w + connections`,
/// `w + 2 connections`, ...: it alternates the two). Every asset is checked in first,
/// in case an earlier run left it out.
async fn checkout_cycle(conn: &mut Conn, connections: usize) -> Result<Vec<String>> {
    let numbers = asset_numbers(conn, (connections as u64).div_ceil(25)).await?;
    if numbers.len() < connections {
        bail!("the check-out cycle needs one asset per connection: seed at least {connections}");
    }
    let members = Listing::MEMBERS.fetch(conn, 1).await?;
    let member = members["members"]
        .as_array()
        .and_then(|a| {
            a.iter()
                .find(|m| m["status"] == "active")
                .and_then(|m| m["id"].as_i64())
        })
        .context("no active member to check assets out to")?;
    let numbers = &numbers[..connections];
    for n in numbers {
        let uri = conn.target().uri(&format!("/assets/{n}/checkin.api"))?;
        let req = conn.target().put(uri);
        conn.call(req).await?;
    }
    let mut uris: Vec<String> = numbers
        .iter()
        .map(|n| format!("/assets/{n}/checkout.api?user_id={member}"))
        .collect();
    uris.extend(numbers.iter().map(|n| format!("/assets/{n}/checkin.api")));
    Ok(uris)
}

/// Page URIs 1..=total_pages (just page 1 when the list is empty).
async fn page_uris(conn: &mut Conn, listing: Listing) -> Result<Vec<String>> {
    let pages = page_count(conn, listing).await?;
    Ok((1..=pages).map(|n| listing.page(n)).collect())
}

/// The list's `total_pages`, at least 1.
async fn page_count(conn: &mut Conn, listing: Listing) -> Result<u64> {
    let first = listing.fetch(conn, 1).await?;
    let pages = match total_pages(&first) {
        Some(n) => n.max(1),
        None => {
            eprintln!(
                "warning: {} has no total_pages; using page 1 only",
                listing.page(1)
            );
            1
        }
    };
    if list_ids(&first, listing.what).is_empty() {
        eprintln!(
            "warning: {} list is empty; seed first for meaningful numbers",
            listing.what
        );
    }
    Ok(pages)
}

/// Ids from list pages 1..=min(total_pages, max_pages); errors when none.
async fn collect_ids(conn: &mut Conn, listing: Listing, max_pages: u64) -> Result<Vec<i64>> {
    let mut ids = Vec::new();
    let mut page = 1;
    loop {
        let body = listing.fetch(conn, page).await?;
        let found = list_ids(&body, listing.what);
        let last = total_pages(&body).unwrap_or(1);
        let empty = found.is_empty();
        ids.extend(found);
        if empty || page >= last || page >= max_pages.max(1) {
            break;
        }
        page += 1;
    }
    ids.sort_unstable();
    ids.dedup();
    if ids.is_empty() {
        bail!(
            "no {} found via {}; run `rentrack-bench seed` first",
            listing.what,
            listing.page(1)
        );
    }
    Ok(ids)
}

fn as_u64(v: &Value) -> Option<u64> {
    v.as_u64().or_else(|| v.as_str()?.trim().parse().ok())
}

fn as_id(v: &Value) -> Option<i64> {
    v.as_i64().or_else(|| v.as_str()?.trim().parse().ok())
}

/// `total_pages` at the top level (number or numeric string).
pub fn total_pages(body: &Value) -> Option<u64> {
    as_u64(body.get("total_pages")?)
}

/// Ids of the records in a list response. Looks for the array under `key`
/// first, then any top-level array; elements may be `{"id": ..}` or wrapped
/// like `{"vendor": {"id": ..}}`.
pub fn list_ids(body: &Value, key: &str) -> Vec<i64> {
    let array = body.get(key).and_then(Value::as_array).or_else(|| {
        body.as_object()?
            .values()
            .filter_map(Value::as_array)
            .find(|a| a.iter().any(|e| element_id(e).is_some()))
    });
    array
        .map(|a| a.iter().filter_map(element_id).collect())
        .unwrap_or_default()
}

fn element_id(e: &Value) -> Option<i64> {
    let obj = e.as_object()?;
    if let Some(id) = obj.get("id") {
        return as_id(id);
    }
    match obj.values().collect::<Vec<_>>().as_slice() {
        [inner] => as_id(inner.get("id")?),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn mix_names_match_cli() {
        assert_eq!(Mix::LocationDetails.name(), "location-details");
        assert_eq!(Mix::Healthz.name(), "healthz");
        assert_eq!(Mix::from_str("vendor-list", false), Ok(Mix::VendorList));
    }

    #[test]
    fn ids_from_plain_and_wrapped_lists() {
        let body = json!({"locations": [{"id": 3}, {"id": "4"}, {"name": "x"}], "total_pages": 2});
        assert_eq!(list_ids(&body, "locations"), vec![3, 4]);
        assert_eq!(total_pages(&body), Some(2));

        let body =
            json!({"classifications": [{"group": {"id": 9, "name": "G"}}], "total_pages": "1"});
        assert_eq!(list_ids(&body, "groups"), vec![9]);
        assert_eq!(total_pages(&body), Some(1));

        assert!(list_ids(&json!({"vendors": []}), "vendors").is_empty());
        assert_eq!(total_pages(&json!({})), None);
    }

    #[test]
    fn single_kind_is_round_robin() {
        let plan = Plan::from_paths(&[(Mix::LocationDetails, &["/a", "/b", "/c"])]);
        let got: Vec<_> = (0..7).map(|g| plan.pick(g).1.path().to_owned()).collect();
        assert_eq!(got, ["/a", "/b", "/c", "/a", "/b", "/c", "/a"]);
    }

    #[test]
    fn blend_is_even_and_round_robin_within_kind() {
        let plan = Plan::from_paths(&[
            (Mix::LocationDetails, &["/l1", "/l2"]),
            (Mix::LocationList, &["/p1"]),
            (Mix::VendorDetails, &["/v1", "/v2", "/v3"]),
        ]);
        let got: Vec<_> = (0..9).map(|g| plan.pick(g).1.path().to_owned()).collect();
        assert_eq!(
            got,
            [
                "/l1", "/p1", "/v1", "/l2", "/p1", "/v2", "/l1", "/p1", "/v3"
            ]
        );
        assert_eq!(
            plan.describe(),
            "location-details=2 location-list=1 vendor-details=3"
        );
    }
}
