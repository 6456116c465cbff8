//! Who acts: the company's owner when a request comes with the company's token, or the
//! member signed in to the staff pages, whose requests run inside [`as_member`]. Stock
//! movements and order histories name them (`stock::actor`).

use std::future::Future;

use crate::ids::{Id, kind};

tokio::task_local! {
    static MEMBER: i64;
}

/// Runs `work` as done by `member` (a staff page's request).
pub async fn as_member<F: Future>(member: Id<kind::Member>, work: F) -> F::Output {
    MEMBER.scope(member.get(), work).await
}

/// The member acting in this task, if it is not the owner.
pub(crate) fn member() -> Option<i64> {
    MEMBER.try_with(|m| *m).ok()
}
