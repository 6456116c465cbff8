//! Statements whose text never changes, rendered once per backend.
//!
//! A record's details are one small read, and building its sea-query statement (a tree
//! of boxed expressions, cloned by the builder's `to_owned`) and rendering it to SQL
//! cost about a fifth of the server's CPU for an asset's details on SQLite (perf) —
//! as much as SQLite's own work. A `Shape` keeps the text the first call rendered; later
//! calls bind their own values to it and build nothing. The values are written out at
//! the call site in the order the statement takes them; in debug builds (the tests)
//! every call also builds and renders the statement and checks that its text and its
//! values are the ones given, so a wrong order or a text that depends on a value fails
//! the tests on both backends.

use std::sync::OnceLock;

use sea_query::Values;

use crate::{Backend, Statement};

/// The rendered text of one statement, per backend.
pub(crate) struct Shape([OnceLock<String>; 2]);

impl Shape {
    pub(crate) const fn new() -> Shape {
        Shape([OnceLock::new(), OnceLock::new()])
    }

    /// The statement `build` makes, with `values` bound: `build` runs only the first
    /// time on each backend (and at every call in debug builds, to check `values`).
    pub(crate) fn bind<S: Statement>(
        &'static self,
        backend: Backend,
        build: impl FnOnce() -> S,
        values: Values,
    ) -> Shaped {
        let slot = &self.0[match backend {
            Backend::Sqlite => 0,
            Backend::Postgres => 1,
        }];
        let text = if crate::CHECKS {
            let (text, built) = build().render(backend);
            assert_eq!(built, values, "the values of a shaped statement: {text}");
            let kept = slot.get_or_init(|| text.clone());
            assert_eq!(*kept, text, "a shaped statement's text changed");
            kept
        } else {
            slot.get_or_init(|| build().render(backend).0)
        };
        Shaped { text, values }
    }
}

/// A shaped statement with its values.
pub(crate) struct Shaped {
    text: &'static str,
    values: Values,
}

impl Statement for Shaped {
    fn render(&self, _backend: Backend) -> (String, Values) {
        (self.text.to_owned(), self.values.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sea_query::{Expr, ExprTrait, Query};

    fn by_id(id: i64) -> sea_query::SelectStatement {
        Query::select()
            .column("name")
            .from("things")
            .and_where(Expr::col("id").eq(id))
            .take()
    }

    #[test]
    fn later_calls_bind_their_own_values_to_the_first_text() {
        static SHAPE: Shape = Shape::new();
        for id in [7, 8] {
            let (text, values) = SHAPE
                .bind(Backend::Postgres, || by_id(id), Values(vec![id.into()]))
                .render(Backend::Postgres);
            assert_eq!(text, r#"SELECT "name" FROM "things" WHERE "id" = $1"#);
            assert_eq!(values, Values(vec![id.into()]));
        }
        let (text, _) = SHAPE
            .bind(Backend::Sqlite, || by_id(9), Values(vec![9i64.into()]))
            .render(Backend::Sqlite);
        assert_eq!(text, r#"SELECT "name" FROM "things" WHERE "id" = ?"#);
    }

    #[cfg(any(debug_assertions, feature = "checks"))]
    #[test]
    #[should_panic(expected = "the values of a shaped statement")]
    fn values_other_than_the_statements_are_refused() {
        static SHAPE: Shape = Shape::new();
        SHAPE.bind(Backend::Sqlite, || by_id(7), Values(vec![8i64.into()]));
    }
}
