//! SQLite commits with `synchronous=FULL` unless told otherwise, so an acknowledged
//! write survives a power loss.

use store::{Db, SqliteSync};

fn database_file(name: &str) -> String {
    let dir = std::env::temp_dir().join("rentrack-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("durability-{}-{name}.db", std::process::id()));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
    format!("sqlite://{}", path.display())
}

#[tokio::test]
async fn sqlite_syncs_every_commit_unless_told_otherwise() {
    let db = Db::connect(&database_file("default")).await.unwrap();
    assert_eq!(
        db.sqlite_synchronous().await.unwrap(),
        Some("full"),
        "FULL is the default"
    );
    db.close();

    let db = Db::connect_with(&database_file("normal"), &normal())
        .await
        .unwrap();
    assert_eq!(db.sqlite_synchronous().await.unwrap(), Some("normal"));
    db.close();

    assert_eq!("full".parse::<SqliteSync>(), Ok(SqliteSync::Full));
    assert_eq!("normal".parse::<SqliteSync>(), Ok(SqliteSync::Normal));
    let refused = "off".parse::<SqliteSync>().unwrap_err();
    assert!(refused.contains("full or normal"), "{refused}");
}

#[tokio::test]
#[ignore = "needs TEST_POSTGRES_URL"]
async fn postgres_has_no_sqlite_synchronous_setting() {
    let url = std::env::var("TEST_POSTGRES_URL").expect("TEST_POSTGRES_URL");
    let db = Db::connect_with(&url, &normal()).await.unwrap();
    assert_eq!(db.sqlite_synchronous().await.unwrap(), None);
    db.close();
}

fn normal() -> store::DbOptions {
    store::DbOptions {
        sqlite_synchronous: SqliteSync::Normal,
        ..Default::default()
    }
}
