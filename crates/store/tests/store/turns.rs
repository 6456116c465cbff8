//! `item_core::begin`: writes of one item wait for each other before they take a
//! connection, first come first served (on PostgreSQL in the process; on SQLite every
//! write takes its turn already); on PostgreSQL a write of another item does not wait.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use store::{Db, Number, Sql};

use crate::url;

both!(writes_of_one_item_take_turns_in_order);

async fn writes_of_one_item_take_turns_in_order(url: String) {
    let db = Db::connect(&url).await.unwrap();
    db.migrate().await.unwrap();
    let company = crate::order_catalog::company(&db).await;
    let item = Number::new(7);
    let first = store::item_core::begin(&db, company, item).await.unwrap();
    let order = Arc::new(Mutex::new(Vec::new()));
    let mut waiting = Vec::new();
    for w in 0..8 {
        let (db, order) = (db.clone(), order.clone());
        waiting.push(tokio::spawn(async move {
            let mut tx = store::item_core::begin(&db, company, item).await.unwrap();
            order.lock().unwrap().push(w);
            // A statement, so each holds a connection while it has the turn.
            tx.execute(&Sql {
                text: "SELECT 1",
                values: sea_query::Values(vec![]),
            })
            .await
            .unwrap();
            tx.commit().await.unwrap();
        }));
        // Queued before the next comes.
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(
        order.lock().unwrap().is_empty(),
        "a write of the item went ahead of the one holding it"
    );
    if url.starts_with("postgres") {
        // Another item's write goes on meanwhile.
        let other = tokio::time::timeout(
            Duration::from_secs(2),
            store::item_core::begin(&db, company, Number::new(8)),
        )
        .await
        .expect("another item's write does not wait")
        .unwrap();
        other.commit().await.unwrap();
    }
    first.commit().await.unwrap();
    for w in waiting {
        w.await.unwrap();
    }
    assert_eq!(*order.lock().unwrap(), (0..8).collect::<Vec<_>>());
}
