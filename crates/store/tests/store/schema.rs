//! The SQLite and PostgreSQL migrations must produce the same tables and columns
//! (name, normalised type, nullability).

#[tokio::test]
async fn sqlite_migrates_to_a_schema() {
    let sqlite = store::Db::connect("sqlite::memory:").await.unwrap();
    sqlite.migrate().await.unwrap();
    assert!(!sqlite.describe_schema().await.unwrap().is_empty());
}

#[tokio::test]
#[ignore = "needs TEST_POSTGRES_URL"]
async fn sqlite_and_postgres_schemas_agree() {
    let pg_url = std::env::var("TEST_POSTGRES_URL").expect("TEST_POSTGRES_URL");
    let sqlite = store::Db::connect("sqlite::memory:").await.unwrap();
    sqlite.migrate().await.unwrap();

    let schema = format!("schema_check_{}", std::process::id());
    let admin = store::Db::connect(&pg_url).await.unwrap();
    let create: &'static str =
        Box::leak(format!("CREATE SCHEMA IF NOT EXISTS {schema}").into_boxed_str());
    admin
        .read()
        .execute(&store::Sql {
            text: create,
            values: sea_query::Values(vec![]),
        })
        .await
        .unwrap();
    let sep = if pg_url.contains('?') { '&' } else { '?' };
    let pg = store::Db::connect(&format!("{pg_url}{sep}options=-c%20search_path%3D{schema}"))
        .await
        .unwrap();
    pg.migrate().await.unwrap();

    let lite = sqlite.describe_schema().await.unwrap();
    let post = pg.describe_schema().await.unwrap();
    let drop: &'static str = Box::leak(format!("DROP SCHEMA {schema} CASCADE").into_boxed_str());
    admin
        .read()
        .execute(&store::Sql {
            text: drop,
            values: sea_query::Values(vec![]),
        })
        .await
        .unwrap();
    assert!(
        lite.iter().all(|c| c.2 != "other"),
        "unrecognised SQLite type: {lite:?}"
    );
    assert!(
        post.iter().all(|c| c.2 != "other"),
        "unrecognised PostgreSQL type: {post:?}"
    );
    let only_sqlite: Vec<_> = lite.iter().filter(|c| !post.contains(c)).collect();
    let only_pg: Vec<_> = post.iter().filter(|c| !lite.contains(c)).collect();
    assert!(
        only_sqlite.is_empty() && only_pg.is_empty(),
        "schemas differ\nonly SQLite: {only_sqlite:#?}\nonly PostgreSQL: {only_pg:#?}"
    );
}
