//! A transaction's writes sent ahead (`Tx::send`: on PostgreSQL they go out with the
//! next statement waited for) and its commit with a last read (`Tx::commit_reading`):
//! a refused write sent ahead fails the transaction and leaves nothing, later
//! statements see the writes sent before them, the read before the commit is answered
//! and committed, and nothing runs outside the transaction. Reads together
//! (`Tx::read_together`: on PostgreSQL one pipeline) answer in order and see the writes
//! sent before them; one refused fails them.

use store::{Db, Sql};

use crate::url;

both!(
    writes_sent_ahead_keep_their_order_and_their_errors,
    reads_together_answer_in_order_after_the_writes_sent_ahead,
);

fn sql(text: &'static str) -> Sql {
    Sql {
        text,
        values: sea_query::Values(vec![]),
    }
}

async fn count(db: &Db) -> i64 {
    let (n,): (i64,) = db
        .read()
        .one(&sql("SELECT count(*) FROM pipe"))
        .await
        .unwrap();
    n
}

/// Sends `writes` ahead in `tx` and commits it: the first refusal (SQLite's comes at
/// its `send`, PostgreSQL's at the commit), or the commit's answer.
async fn send_and_commit(mut tx: store::Tx, writes: &[Sql]) -> Result<(), store::StoreError> {
    for write in writes {
        tx.send(write)?;
    }
    tx.commit().await
}

/// A database of `url` with the table `pipe` (a unique key `k` and a number `n`).
async fn with_pipe(url: &str) -> Db {
    let db = Db::connect(url).await.unwrap();
    db.read()
        .execute(&sql(
            "CREATE TABLE pipe (k TEXT NOT NULL UNIQUE, n BIGINT NOT NULL)",
        ))
        .await
        .unwrap();
    db
}

async fn writes_sent_ahead_keep_their_order_and_their_errors(url: String) {
    let db = with_pipe(&url).await;

    // A write sent ahead that breaks the key fails the statement after it; dropped,
    // the transaction leaves none of its writes.
    let mut tx = db.begin().await.unwrap();
    tx.send(&sql("INSERT INTO pipe (k, n) VALUES ('a', 1)"))
        .unwrap();
    let refused = match tx.send(&sql("INSERT INTO pipe (k, n) VALUES ('a', 2)")) {
        // SQLite runs it at once.
        Err(e) => Err(e),
        Ok(()) => tx.all::<(i64,)>(&sql("SELECT n FROM pipe")).await.map(drop),
    };
    assert!(refused.is_err(), "the second 'a' is refused");
    drop(tx);
    assert_eq!(count(&db).await, 0, "nothing of the refused transaction");

    // Refused at the commit: nothing is committed.
    let committed = send_and_commit(
        db.begin().await.unwrap(),
        &[
            sql("INSERT INTO pipe (k, n) VALUES ('b', 1)"),
            sql("INSERT INTO pipe (k, n) VALUES ('b', 2)"),
        ],
    )
    .await;
    assert!(
        committed.is_err(),
        "the second 'b' is refused at the commit"
    );
    assert_eq!(count(&db).await, 0);

    // Statements see the writes sent before them, and the last read comes back with
    // the commit.
    let mut tx = db.begin().await.unwrap();
    tx.send(&sql("INSERT INTO pipe (k, n) VALUES ('c', 1)"))
        .unwrap();
    tx.send(&sql("UPDATE pipe SET n = n + 1 WHERE k = 'c'"))
        .unwrap();
    let (seen,): (i64,) = tx
        .one(&sql("SELECT n FROM pipe WHERE k = 'c'"))
        .await
        .unwrap();
    assert_eq!(seen, 2);
    tx.send(&sql("UPDATE pipe SET n = n * 10 WHERE k = 'c'"))
        .unwrap();
    let (read,): (i64,) = tx
        .commit_reading(&sql("SELECT n FROM pipe WHERE k = 'c'"))
        .await
        .unwrap();
    assert_eq!(read, 20);
    let (stored,): (i64,) = db
        .read()
        .one(&sql("SELECT n FROM pipe WHERE k = 'c'"))
        .await
        .unwrap();
    assert_eq!(stored, 20, "committed");

    // A statement that cannot even be prepared, as the transaction's first: what the
    // transaction writes after it is not written either (it must not run outside the
    // transaction, whose BEGIN had not gone out yet).
    {
        let mut tx = db.begin().await.unwrap();
        tx.send(&sql("INSERT INTO pipe (k, n) VALUES ('e', 1)"))
            .unwrap();
        let broken = tx
            .all::<(i64,)>(&sql("SELECT no_such_column FROM pipe"))
            .await;
        assert!(broken.is_err());
        let _ = tx
            .execute(&sql("INSERT INTO pipe (k, n) VALUES ('f', 1)"))
            .await;
    }
    assert_eq!(count(&db).await, 1, "only 'c'");

    // A write whose value cannot be bound (above BIGINT), sent ahead of the commit: it
    // is refused before it is sent, and the commit after it is not sent either.
    let too_big = Sql {
        text: match db.backend() {
            store::Backend::Sqlite => "INSERT INTO pipe (k, n) VALUES ('h', ?)",
            store::Backend::Postgres => "INSERT INTO pipe (k, n) VALUES ('h', $1)",
        },
        values: sea_query::Values(vec![sea_query::Value::BigUnsigned(Some(u64::MAX))]),
    };
    let committed = send_and_commit(
        db.begin().await.unwrap(),
        &[sql("INSERT INTO pipe (k, n) VALUES ('g', 1)"), too_big],
    )
    .await;
    assert!(committed.is_err());
    assert_eq!(count(&db).await, 1, "only 'c'");

    // A write sent ahead that cannot be prepared, found at the commit after the
    // transaction began: the commit fails, the transaction is rolled back, and its
    // connection (the only one for transactions here) serves the next.
    let one = Db::connect_with(
        &url,
        &store::DbOptions {
            max_connections: Some(2),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let mut tx = one.begin().await.unwrap();
    tx.execute(&sql("INSERT INTO pipe (k, n) VALUES ('i', 1)"))
        .await
        .unwrap();
    let committed =
        send_and_commit(tx, &[sql("INSERT INTO pipe (no_such_column) VALUES (1)")]).await;
    assert!(committed.is_err());
    for _ in 0..3 {
        let mut tx = one.begin().await.unwrap();
        tx.execute(&sql("UPDATE pipe SET n = n WHERE k = 'c'"))
            .await
            .unwrap();
        tx.commit().await.unwrap();
    }
    one.close();
    assert_eq!(count(&db).await, 1, "only 'c'");

    // A transaction dropped with writes still queued leaves them unwritten.
    let mut tx = db.begin().await.unwrap();
    tx.send(&sql("INSERT INTO pipe (k, n) VALUES ('d', 1)"))
        .unwrap();
    drop(tx);
    assert_eq!(count(&db).await, 1, "only 'c'");
    db.close();
}

async fn reads_together_answer_in_order_after_the_writes_sent_ahead(url: String) {
    let db = with_pipe(&url).await;
    let mut tx = db.begin().await.unwrap();
    tx.send(&sql("INSERT INTO pipe (k, n) VALUES ('a', 1)"))
        .unwrap();
    tx.send(&sql("INSERT INTO pipe (k, n) VALUES ('b', 2)"))
        .unwrap();
    let (b, a, all) = (
        sql("SELECT n FROM pipe WHERE k = 'b'"),
        sql("SELECT n FROM pipe WHERE k = 'a'"),
        sql("SELECT n FROM pipe ORDER BY n"),
    );
    let mut reads = tx.read_together(&[&b, &a, &all]).await.unwrap();
    assert_eq!(reads.next::<(i64,)>(&mut tx).unwrap(), vec![(2,)]);
    assert_eq!(reads.next::<(i64,)>(&mut tx).unwrap(), vec![(1,)]);
    assert_eq!(reads.next::<(i64,)>(&mut tx).unwrap(), vec![(1,), (2,)]);
    tx.commit().await.unwrap();
    assert_eq!(count(&db).await, 2);

    // A read that fails (no such table) fails the reads (SQLite's when its rows are
    // asked for), and the transaction leaves nothing.
    let mut tx = db.begin().await.unwrap();
    tx.send(&sql("INSERT INTO pipe (k, n) VALUES ('c', 3)"))
        .unwrap();
    let missing = sql("SELECT n FROM no_such_table");
    let failed = match tx.read_together(&[&all, &missing]).await {
        Err(e) => Err(e),
        Ok(mut reads) => {
            reads.next::<(i64,)>(&mut tx).unwrap();
            reads.next::<(i64,)>(&mut tx).map(drop)
        }
    };
    assert!(failed.is_err(), "a read of a missing table fails");
    drop(tx);
    assert_eq!(count(&db).await, 2, "nothing of the failed transaction");
    db.close();
}
