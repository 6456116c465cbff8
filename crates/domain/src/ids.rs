use serde::Serialize;

/// The tenant every query is scoped to. Only the authentication layer makes one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct CompanyId(pub i64);
