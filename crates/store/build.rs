//! Embeds the migrations of both databases (`migrations/sqlite`, `migrations/postgres`)
//! as `engine::migrate::SQLITE` and `POSTGRES`: each file `NNNN_description.sql` is
//! the migration of version `NNNN`, applied in version order.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let root = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let mut code = String::new();
    for (name, folder) in [
        ("SQLITE", "migrations/sqlite"),
        ("POSTGRES", "migrations/postgres"),
    ] {
        println!("cargo:rerun-if-changed={folder}");
        let dir = Path::new(&root).join(folder);
        let mut files: Vec<(i64, String, String)> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|entry| entry.expect("a folder entry").path())
            .filter(|path| path.extension().is_some_and(|e| e == "sql"))
            .map(|path| {
                let stem = path.file_stem().expect("a file name").to_string_lossy();
                let (version, description) = stem
                    .split_once('_')
                    .unwrap_or_else(|| panic!("{}: name it NNNN_description.sql", path.display()));
                let version = version.parse().unwrap_or_else(|_| {
                    panic!("{}: the name starts with its version", path.display())
                });
                (
                    version,
                    description.replace('_', " "),
                    path.display().to_string(),
                )
            })
            .collect();
        files.sort();
        if let Some(twice) = files.windows(2).find(|w| w[0].0 == w[1].0) {
            panic!("{folder}: two migrations of version {}", twice[0].0);
        }
        writeln!(code, "pub(crate) static {name}: &[Migration] = &[").expect("writes");
        for (version, description, path) in files {
            writeln!(
                code,
                "    Migration {{ version: {version}, description: {description:?}, sql: include_str!({path:?}) }},"
            )
            .expect("writes");
        }
        writeln!(code, "];").expect("writes");
    }
    std::fs::write(Path::new(&out).join("migrations.rs"), code).expect("writes OUT_DIR");
}
