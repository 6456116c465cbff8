//! An import's heartbeat never changes how it ended: on SQLite a heartbeat waits for
//! the write turn the import's own transaction holds, and one written after the end
//! set a done import back to running, which the minute's sweep then failed as
//! abandoned (found seeding a million assets on a loaded machine).

use store::Id;
use store::imports::{self, Outcome, State};

use crate::url;

both!(a_late_heartbeat_leaves_an_ended_import_as_it_ended);

async fn a_late_heartbeat_leaves_an_ended_import_as_it_ended(url: String) {
    let db = store::Db::connect(&url).await.unwrap();
    db.migrate().await.unwrap();
    let company = crate::order_catalog::company(&db).await;
    let state = |import: &imports::Import| import.state.clone();
    let import = imports::create(&db, company, "vendors", false, Some("v.csv"))
        .await
        .unwrap();
    imports::progress(&db, company, import.id, 10)
        .await
        .unwrap();
    let running = imports::find(&db, company, Id::new(import.id))
        .await
        .unwrap();
    assert_eq!((state(&running), running.rows_done), ("running".into(), 10));
    let outcome = Outcome {
        state: State::Done,
        rows_total: 20,
        created: 20,
        updated: 0,
        errors: "[]".into(),
        errors_total: 0,
        message: None,
    };
    imports::finish(&db, company, import.id, outcome)
        .await
        .unwrap();
    imports::progress(&db, company, import.id, 15)
        .await
        .unwrap();
    let ended = imports::find(&db, company, Id::new(import.id))
        .await
        .unwrap();
    assert_eq!(
        (state(&ended), ended.rows_done, ended.created),
        ("done".into(), 20, 20)
    );
    // Nor does the sweep fail it, however old its last heartbeat.
    let swept = imports::fail_abandoned(&db, store::now() + chrono::Duration::hours(1), &[])
        .await
        .unwrap();
    assert_eq!(swept, 0);
    assert_eq!(
        state(
            &imports::find(&db, company, Id::new(import.id))
                .await
                .unwrap()
        ),
        "done"
    );
}
