//! What a member may send through the staff pages, by role. An administrator may do
//! whatever the API does. Any other member (the staff role, or a custom role) may read
//! (except the webhooks, imports and exports, which are settings and whole-company
//! data) and handle items: check out and in, extend, reserve, verify, move and add
//! stock, rent out and return orders, print labels. Retiring, deleting, creating and
//! editing records, and settings are the administrators'. docs/staff.md has the table.

use axum::http::Method;
use domain::member::Role;

/// Whether `role` may do anything the API does.
pub(super) fn administers(role: Role) -> bool {
    role == Role::Administrator
}

/// The writes any member may send: (method, API path with `*` for a number).
const HANDLING: &[(&str, &str)] = &[
    ("PUT", "assets/*/checkout"),
    ("PUT", "assets/*/checkin"),
    ("PUT", "assets/*/extend_checkout"),
    ("POST", "assets/*/reservation_requests"),
    ("POST", "assets/*/verify_possession"),
    ("POST", "assets/*/verification_requests"),
    ("PUT", "assets/*/cancel_verification"),
    ("POST", "inventory/*/order"),
    ("POST", "inventory/*/transfer_stock"),
    ("POST", "stock_assets/*/order"),
    ("POST", "stock_assets/*/checkin"),
    ("POST", "stock_assets/*/transfer_stock"),
    ("POST", "stock_assets/*/mass_extend_checkout_items"),
    ("PATCH", "baskets/*/checkout"),
    ("PUT", "baskets/*/checkout"),
    ("PATCH", "baskets/*/checkin"),
    ("PUT", "baskets/*/checkin"),
    ("POST", "qrcodes"),
    ("POST", "qrcode/members"),
    ("POST", "qrcode/locations"),
];

/// The reads only administrators may send (first segment of the path).
const SETTINGS: &[&str] = &["webhooks", "imports", "exports"];

/// Whether `role` may send `method` to the API path `path` (`/assets/7/checkout`, as
/// the router sees `/assets/7/checkout.api`).
pub(super) fn allows(role: Role, method: &Method, path: &str) -> bool {
    if administers(role) {
        return true;
    }
    // The path as the router matches it: `routing` already took `.api` off.
    let path = path.trim_start_matches('/');
    let segments: Vec<&str> = path.split('/').collect();
    if *method == Method::GET || *method == Method::HEAD {
        return !SETTINGS.contains(&segments[0]);
    }
    HANDLING.iter().any(|(m, pattern)| {
        *m == method.as_str() && {
            let wanted: Vec<&str> = pattern.split('/').collect();
            wanted.len() == segments.len()
                && wanted.iter().zip(&segments).all(|(w, s)| {
                    if *w == "*" {
                        !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
                    } else {
                        w == s
                    }
                })
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn staff_handle_items_and_administrators_do_everything() {
        let staff = Role::Staff;
        assert!(allows(staff, &Method::PUT, "/assets/7/checkout"));
        assert!(allows(staff, &Method::GET, "/assets/7"));
        assert!(allows(
            Role::Custom(9),
            &Method::PATCH,
            "/baskets/3/checkin"
        ));
        assert!(!allows(staff, &Method::PUT, "/assets/7/retire"));
        assert!(!allows(staff, &Method::DELETE, "/assets/7"));
        assert!(!allows(staff, &Method::PUT, "/assets/7"));
        assert!(!allows(staff, &Method::PUT, "/assets/x/checkout"));
        assert!(!allows(staff, &Method::PUT, "/assets/7/checkout/more"));
        assert!(!allows(staff, &Method::PUT, "/assets/7/checkout.api"));
        assert!(!allows(staff, &Method::GET, "/webhooks"));
        assert!(!allows(staff, &Method::POST, "/members"));
        let admin = Role::Administrator;
        assert!(allows(admin, &Method::PUT, "/assets/7/retire"));
        assert!(allows(admin, &Method::GET, "/webhooks"));
    }
}
