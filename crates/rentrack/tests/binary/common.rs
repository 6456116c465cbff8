//! The `rentrack` binary under test: scratch folders, a fresh SQLite URL, and a server
//! started on a free port whose log is kept.

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_rentrack");

/// A new folder for one test's files, under the temp dir's `rentrack-tests`, where the
/// first test of a run also clears folders earlier runs left more than an hour ago.
pub fn scratch_dir() -> PathBuf {
    static N: AtomicU32 = AtomicU32::new(0);
    static CLEARED: std::sync::Once = std::sync::Once::new();
    let root = std::env::temp_dir().join("rentrack-tests");
    CLEARED.call_once(|| {
        let hour_ago = std::time::SystemTime::now() - Duration::from_secs(3600);
        for entry in std::fs::read_dir(&root).into_iter().flatten().flatten() {
            let old = entry
                .metadata()
                .and_then(|m| m.modified())
                .is_ok_and(|t| t < hour_ago);
            if old && entry.file_name().to_string_lossy().starts_with("cli-") {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    });
    let dir = root.join(format!(
        "cli-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn sqlite_url() -> String {
    format!("sqlite://{}", scratch_dir().join("rentrack.db").display())
}

pub fn rand_suffix() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(Instant::now().elapsed().as_nanos());
    h.finish() % 1_000_000_000
}

/// A running server, its base URL, and everything it has written to stderr.
pub struct Server {
    pub child: Child,
    pub base_url: String,
    pub stdout: Vec<String>,
    stderr: Arc<std::sync::Mutex<Vec<String>>>,
}

impl Server {
    /// Starts `rentrack <args> --listen 127.0.0.1:0` and waits for its "listening" log line.
    pub fn start(db: &str, args: &[&str]) -> Server {
        Server::start_with_env(db, args, &[])
    }

    /// As `start`, with these environment variables set.
    pub fn start_with_env(db: &str, args: &[&str], env: &[(&str, &str)]) -> Server {
        let mut child = Command::new(BIN)
            .args(args)
            .args(["--listen", "127.0.0.1:0", "--database-url", db])
            .env("RENTRACK_LOG", "info")
            .env_remove("RENTRACK_SQLITE_SYNCHRONOUS")
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start rentrack");
        let stderr = Arc::new(std::sync::Mutex::new(Vec::new()));
        let (tx, rx) = std::sync::mpsc::channel();
        let reader = BufReader::new(child.stderr.take().unwrap());
        let lines = stderr.clone();
        std::thread::spawn(move || {
            for line in reader.lines().map_while(Result::ok) {
                // Kept before the address is announced, so the log holds the line by then.
                lines.lock().unwrap().push(line.clone());
                if let Ok(v) = serde_json::from_str::<Value>(&line)
                    && let Some(address) = v["address"].as_str()
                {
                    let _ = tx.send(address.to_owned());
                }
            }
        });
        let base_url = rx
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| {
                let _ = child.kill();
                panic!("server did not start: {:?}", stderr.lock().unwrap())
            });
        Server {
            child,
            base_url,
            stdout: Vec::new(),
            stderr,
        }
    }

    pub fn port(&self) -> u16 {
        self.base_url.rsplit(':').next().unwrap().parse().unwrap()
    }

    /// Reads the lines the server printed on stdout before it began listening.
    pub fn read_stdout_until(&mut self, marker: &str) {
        let out = self.child.stdout.as_mut().unwrap();
        let mut reader = BufReader::new(out);
        let mut line = String::new();
        while reader.read_line(&mut line).unwrap() > 0 {
            let done = line.contains(marker);
            self.stdout.push(std::mem::take(&mut line));
            if done {
                return;
            }
        }
    }

    /// Sends SIGTERM and waits for the exit.
    pub fn terminate(&mut self) -> std::process::ExitStatus {
        self.send_sigterm();
        self.wait()
    }

    /// Sends SIGTERM, without waiting.
    pub fn send_sigterm(&self) {
        let ok = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(ok.success());
    }

    /// Waits up to 40 s (past the shutdown's 30 s grace) for the process to exit.
    pub fn wait(&mut self) -> std::process::ExitStatus {
        let deadline = Instant::now() + Duration::from_secs(40);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "server did not stop");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn log(&self) -> Vec<String> {
        self.stderr.lock().unwrap().clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
