//! Tests of the store against real databases: schema agreement between the two
//! backends, SQLite durability, the migrator, and the store functions orders call that no endpoint
//! reaches yet. One test binary, one module per concern.

use store::{Db, Sql};

pub(crate) fn unique(prefix: &str) -> String {
    use rand::Rng;
    format!(
        "{prefix}{:012x}",
        rand::thread_rng().r#gen::<u64>() & 0xffff_ffff_ffff
    )
}

/// A database URL to test on: a new SQLite file, or a new schema of the PostgreSQL
/// database `TEST_POSTGRES_URL` names.
pub(crate) async fn url(postgres: bool) -> String {
    if !postgres {
        let dir = std::env::temp_dir().join("rentrack-tests");
        std::fs::create_dir_all(&dir).unwrap();
        return format!(
            "sqlite://{}",
            dir.join(format!("{}.db", unique("catalog-"))).display()
        );
    }
    let base = std::env::var("TEST_POSTGRES_URL").expect("TEST_POSTGRES_URL");
    let schema = unique("t_");
    let admin = Db::connect(&base).await.unwrap();
    let create: &'static str = Box::leak(format!("CREATE SCHEMA {schema}").into_boxed_str());
    admin
        .read()
        .execute(&Sql {
            text: create,
            values: sea_query::Values(vec![]),
        })
        .await
        .unwrap();
    admin.close();
    let sep = if base.contains('?') { '&' } else { '?' };
    format!("{base}{sep}options=-c%20search_path%3D{schema}")
}

/// Each case on SQLite, and on PostgreSQL when asked for (ignored otherwise: `cargo
/// test -- --include-ignored` with `TEST_POSTGRES_URL` set).
#[macro_export]
macro_rules! both {
    ($($name:ident),* $(,)?) => {
        mod on_sqlite {
            $(
                #[tokio::test]
                async fn $name() { super::$name(super::url(false).await).await }
            )*
        }
        mod on_postgres {
            $(
                #[tokio::test]
                #[ignore = "needs TEST_POSTGRES_URL"]
                async fn $name() { super::$name(super::url(true).await).await }
            )*
        }
    };
}

mod durability;
mod imports;
mod migrations;
mod order_catalog;
mod pipelines;
mod schema;
mod sqlite_urls;
mod turns;
