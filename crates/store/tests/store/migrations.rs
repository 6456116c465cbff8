//! The migrator (`engine::migrate`): a second run changes nothing, a database migrated
//! by a newer rentrack or with another text of a migration is refused, and the
//! bookkeeping sqlx's migrator kept (rentrack before 0.2) is adopted once, checked
//! migration by migration.

use sea_query::{Value, Values};
use sha2::{Digest, Sha384};
use store::{Backend, Db, MigrateError, Sql, StoreError};

use crate::url;

both!(
    a_second_run_changes_nothing,
    a_database_from_a_newer_rentrack_is_refused,
    sqlx_bookkeeping_is_adopted_once,
    sqlx_bookkeeping_of_another_text_is_refused_and_kept,
    the_search_migration_folds_the_names_of_existing_items,
);

fn sql(text: &str, values: Vec<Value>) -> Sql {
    Sql {
        text: Box::leak(text.to_owned().into_boxed_str()),
        values: Values(values),
    }
}

async fn count(db: &Db, table: &str) -> Result<i64, StoreError> {
    let (n,): (i64,) = db
        .read()
        .one(&sql(&format!("SELECT count(*) FROM {table}"), vec![]))
        .await?;
    Ok(n)
}

async fn execute(db: &Db, text: &str, values: Vec<Value>) {
    db.read()
        .execute(&sql(text, values))
        .await
        .unwrap_or_else(|e| panic!("{text}: {e}"));
}

/// The migration files of `db`'s backend: version and text.
fn files(db: &Db) -> Vec<(i64, String)> {
    let folder = match db.backend() {
        Backend::Sqlite => "sqlite",
        Backend::Postgres => "postgres",
    };
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("migrations")
        .join(folder);
    let mut files: Vec<(i64, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let version = name.split('_').next().unwrap().parse().unwrap();
            (version, std::fs::read_to_string(&path).unwrap())
        })
        .collect();
    files.sort();
    files
}

async fn migrated(url: &str) -> Db {
    let db = Db::connect(url).await.unwrap();
    db.migrate().await.unwrap();
    db
}

async fn a_second_run_changes_nothing(url: String) {
    let db = migrated(&url).await;
    let applied = count(&db, "_rentrack_migrations").await.unwrap();
    assert_eq!(applied, i64::try_from(files(&db).len()).unwrap());
    db.migrate().await.expect("nothing left to apply");
    assert_eq!(count(&db, "_rentrack_migrations").await.unwrap(), applied);
    db.close();
}

async fn a_database_from_a_newer_rentrack_is_refused(url: String) {
    let db = migrated(&url).await;
    execute(
        &db,
        "INSERT INTO _rentrack_migrations (version, description, checksum) VALUES (9999, 'later', 'x')",
        vec![],
    )
    .await;
    let refused = db.migrate().await.expect_err("a version it does not know");
    assert!(
        matches!(refused, StoreError::Migration(MigrateError::Unknown(9999))),
        "{refused:?}"
    );
    db.close();
}

/// Puts `db` back in the state rentrack before 0.2 left it in: sqlx's bookkeeping, with
/// `checksum` of each migration's text, and none of ours.
async fn as_sqlx_left_it(db: &Db, checksum: impl Fn(i64, &str) -> Vec<u8>) {
    let bytes = match db.backend() {
        Backend::Sqlite => "BLOB",
        Backend::Postgres => "BYTEA",
    };
    execute(db, "DROP TABLE _rentrack_migrations", vec![]).await;
    execute(
        db,
        &format!(
            "CREATE TABLE _sqlx_migrations (version BIGINT PRIMARY KEY, description TEXT NOT NULL, \
             installed_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, success BOOLEAN NOT NULL, \
             checksum {bytes} NOT NULL, execution_time BIGINT NOT NULL)"
        ),
        vec![],
    )
    .await;
    for (version, text) in files(db) {
        execute(
            db,
            "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
             VALUES ($1, 'm', TRUE, $2, 1)",
            vec![version.into(), checksum(version, &text).into()],
        )
        .await;
    }
}

async fn sqlx_bookkeeping_is_adopted_once(url: String) {
    let db = migrated(&url).await;
    let all = i64::try_from(files(&db).len()).unwrap();
    as_sqlx_left_it(&db, |_, text| Sha384::digest(text).to_vec()).await;
    db.migrate().await.expect("adopted");
    assert_eq!(count(&db, "_rentrack_migrations").await.unwrap(), all);
    assert!(
        count(&db, "_sqlx_migrations").await.is_err(),
        "sqlx's table is gone"
    );
    db.migrate().await.expect("nothing left to apply");
    assert_eq!(count(&db, "_rentrack_migrations").await.unwrap(), all);
    db.close();
}

async fn sqlx_bookkeeping_of_another_text_is_refused_and_kept(url: String) {
    let db = migrated(&url).await;
    as_sqlx_left_it(&db, |version, text| {
        if version == 3 {
            Sha384::digest("something else").to_vec()
        } else {
            Sha384::digest(text).to_vec()
        }
    })
    .await;
    let refused = db.migrate().await.expect_err("migration 3 differs");
    assert!(
        matches!(refused, StoreError::Migration(MigrateError::Changed(3))),
        "{refused:?}"
    );
    assert_eq!(count(&db, "_rentrack_migrations").await.unwrap(), 0);
    assert_eq!(
        count(&db, "_sqlx_migrations").await.unwrap(),
        i64::try_from(files(&db).len()).unwrap()
    );
    db.close();
}

/// Items written before migration 0024 get their `search_name` from it, folded by
/// rentrack (SQLite's `lower` folds ASCII only): names in other scripts are found by a
/// search in another case, and the trigram index (SQLite's FTS5 table) holds them.
async fn the_search_migration_folds_the_names_of_existing_items(url: String) {
    use domain::item::AssetType;
    use domain::{Page, PageSize};
    use store::items::{self, Search};
    let before = Db::connect(&url).await.unwrap();
    before.migrate_until(Some(23)).await.unwrap();
    let at = "'2024-01-02T03:04:05+00:00'";
    execute(
        &before,
        &format!(
            "INSERT INTO companies (name, subdomain, plan, created_at, updated_at) \
             VALUES ('Old', 'old-names', 'trial', {at}, {at})"
        ),
        vec![],
    )
    .await;
    execute(
        &before,
        &format!(
            "INSERT INTO asset_groups (company_id, name, depreciation_mode, depreciation_rates, created_at, updated_at) \
             SELECT id, 'Tools', 'none', '{{}}', {at}, {at} FROM companies WHERE subdomain = 'old-names'"
        ),
        vec![],
    )
    .await;
    for (n, name) in [(1, "ДРЕЛЬ Makita"), (2, "ΟΔΟΣ Bosch"), (3, "Plain hammer")] {
        execute(
            &before,
            &format!(
                "INSERT INTO items (company_id, sequence_num, asset_type, name, group_id, created_at, updated_at) \
                 SELECT company_id, {n}, 'FixedAsset', '{name}', id, {at}, {at} FROM asset_groups \
                 WHERE name = 'Tools' AND company_id = (SELECT id FROM companies WHERE subdomain = 'old-names')"
            ),
            vec![],
        )
        .await;
    }
    before.close();
    let db = migrated(&url).await;
    let old = store::companies::find_by_subdomain(&db, "old-names")
        .await
        .unwrap();
    let today = store::item_core::Today(chrono::NaiveDate::from_ymd_opt(2024, 1, 2).unwrap());
    for (text, found) in [
        ("дрель", vec!["ДРЕЛЬ Makita"]),
        ("οδος", vec!["ΟΔΟΣ Bosch"]),
        ("οδος bosch", vec!["ΟΔΟΣ Bosch"]),
        ("MAKITA", vec!["ДРЕЛЬ Makita"]),
        ("ham", vec!["Plain hammer"]),
        ("hammer drill", vec![]),
    ] {
        let page = items::search(
            &db,
            old.id,
            AssetType::FixedAsset,
            &Search::Name(text.to_owned()),
            Page::new(1, PageSize::DEFAULT),
            today,
        )
        .await
        .unwrap();
        let names: Vec<&str> = page.records.iter().map(|i| i.item.name.as_str()).collect();
        assert_eq!(names, found, "{text} on {url}");
        assert_eq!(page.total, found.len() as u64);
    }
    db.close();
}
