//! The SQLite URLs `--database-url` takes: a file (created if missing), `mode=rw` (the
//! file must exist), `mode=ro` (reads only), `sqlite::memory:`; any other parameter is
//! refused with a message naming it, before anything is opened.

use store::{Db, StoreError};

fn fresh_path(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join("rentrack-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("urls-{}-{name}.db", std::process::id()));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
    path
}

#[tokio::test]
async fn a_file_is_created_and_migrated_and_read_only_mode_refuses_writes() {
    let path = fresh_path("create");
    let url = format!("sqlite://{}", path.display());
    let db = Db::connect(&url).await.unwrap();
    db.migrate().await.unwrap();
    db.close();
    assert!(path.exists());

    // Opened again it migrates nothing and keeps its data.
    let db = Db::connect(&url).await.unwrap();
    db.migrate().await.unwrap();
    db.close();

    let ro = Db::connect(&format!("{url}?mode=ro")).await.unwrap();
    assert!(!ro.describe_schema().await.unwrap().is_empty());
    let write = store::Sql {
        text: "DELETE FROM companies",
        values: sea_query::Values(Vec::new()),
    };
    // Refused when the write transaction begins, or at the latest at the write.
    let refused = match ro.begin().await {
        Err(e) => e,
        Ok(mut tx) => tx.execute(&write).await.unwrap_err(),
    };
    assert!(refused.to_string().contains("readonly"), "{refused}");
    ro.close();
}

#[tokio::test]
async fn read_write_mode_does_not_create_a_missing_file() {
    let path = fresh_path("missing");
    let refused = Db::connect(&format!("sqlite://{}?mode=rw", path.display())).await;
    assert!(refused.is_err());
    assert!(!path.exists());
}

#[tokio::test]
async fn unknown_parameters_and_empty_paths_are_refused_by_name() {
    let path = fresh_path("params");
    let Err(StoreError::Config(message)) =
        Db::connect(&format!("sqlite://{}?journal=delete", path.display())).await
    else {
        panic!("an unknown parameter must be refused");
    };
    assert!(message.contains("\"journal\""), "{message}");
    assert!(
        !path.exists(),
        "nothing is opened before the URL is understood"
    );

    let Err(StoreError::Config(message)) = Db::connect("sqlite://").await else {
        panic!("an empty path must be refused");
    };
    assert!(message.contains("sqlite://PATH"), "{message}");
}

#[tokio::test]
async fn an_in_memory_database_lives_in_its_one_connection() {
    let db = Db::connect("sqlite::memory:").await.unwrap();
    db.migrate().await.unwrap();
    // Every read goes to the connection the migrations ran on.
    assert!(
        db.describe_schema()
            .await
            .unwrap()
            .iter()
            .any(|(table, ..)| table == "companies")
    );
}
