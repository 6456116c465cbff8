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

/// Concurrent writes commit in groups on SQLite (`Conn::commit_write`): each is a
/// savepoint in a transaction that commits when no other writer waits. A write that
/// fails undoes its own changes and no other write's, and each write that was
/// answered is in the database, opened again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_write_in_a_group_commit_undoes_itself_alone() {
    use sea_query::Value;
    let url = database_file("group");
    let db = std::sync::Arc::new(Db::connect(&url).await.unwrap());
    let sql = |text: &'static str, values: Vec<Value>| store::Sql {
        text,
        values: sea_query::Values(values),
    };
    db.read()
        .execute(&sql(
            "CREATE TABLE writes (k TEXT NOT NULL UNIQUE, writer BIGINT NOT NULL)",
            vec![],
        ))
        .await
        .unwrap();
    let writers = (0..64i64).map(|w| {
        let db = db.clone();
        tokio::spawn(async move {
            let mut tx = db.begin().await.unwrap();
            let insert = "INSERT INTO writes (k, writer) VALUES (?, ?)";
            tx.execute(&sql(insert, vec![format!("own {w}").into(), w.into()]))
                .await
                .unwrap();
            // Others queue meanwhile, so the commits group.
            tokio::task::yield_now().await;
            if w % 4 == 0 {
                // Every fourth writes a key another holds: refused, and dropped.
                let taken = tx
                    .execute(&sql(insert, vec!["shared".into(), w.into()]))
                    .await;
                if taken.is_err() {
                    return (w, false);
                }
            }
            tx.commit().await.unwrap();
            (w, true)
        })
    });
    let mut answered = Vec::new();
    for writer in writers.collect::<Vec<_>>() {
        let (w, committed) = writer.await.unwrap();
        if committed {
            answered.push(w);
        }
    }
    db.close();
    // One of the fourth writers took "shared" first and committed; the other fifteen
    // were refused and left nothing.
    assert_eq!(answered.len(), 64 - 15, "{answered:?}");
    let db = Db::connect(&url).await.unwrap();
    let mut found: Vec<(i64,)> = db
        .read()
        .all(&sql(
            "SELECT DISTINCT writer FROM writes ORDER BY writer",
            vec![],
        ))
        .await
        .unwrap();
    let mut found: Vec<i64> = found.drain(..).map(|(w,)| w).collect();
    found.sort();
    answered.sort();
    assert_eq!(found, answered);
    let (rows,): (i64,) = db
        .read()
        .one(&sql("SELECT count(*) FROM writes", vec![]))
        .await
        .unwrap();
    assert_eq!(
        rows,
        64 - 15 + 1,
        "one row per answered write, and the shared key"
    );
    db.close();
}
