//! Text a person types to find a record: every word of it somewhere in the named
//! columns, case aside (a LIKE with its wildcards escaped).

use sea_query::{Cond, Expr, ExprTrait, Func, IntoColumnRef, LikeExpr};

/// Every word of `text` is in one of `columns` (of the statement's table), case aside.
pub(crate) fn in_any<C: IntoColumnRef + Copy>(text: &str, columns: &[C]) -> Cond {
    let mut all = Cond::all();
    for word in text.split_whitespace() {
        let escaped = word
            .to_lowercase()
            .replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_");
        let mut any = Cond::any();
        for column in columns {
            let pattern = LikeExpr::new(format!("%{escaped}%")).escape('\\');
            any = any.add(Expr::expr(Func::lower(Expr::col(*column))).like(pattern));
        }
        all = all.add(any);
    }
    all
}
