//! Latency samples and exact percentiles.
//!
//! Every worker keeps its own `Vec<u32>` of latencies in microseconds; the
//! vectors are merged and sorted once at the end, so percentiles are exact
//! over all samples (nearest-rank definition).

use std::collections::BTreeMap;
use std::time::Duration;

/// Microseconds, saturating at `u32::MAX` (about 71 minutes).
pub fn micros(d: Duration) -> u32 {
    u32::try_from(d.as_micros()).unwrap_or(u32::MAX)
}

/// Nearest-rank percentile of an ascending slice. `basis_points` is the
/// percentile times 100 (p50 = 5000, p99.9 = 9990, max = 10000), kept as an
/// integer so that p99 of 100 samples is exactly the 99th, without float
/// rounding. Returns `None` for an empty slice.
pub fn percentile(sorted: &[u32], basis_points: u32) -> Option<u32> {
    let n = sorted.len() as u64;
    if n == 0 {
        return None;
    }
    let bp = u64::from(basis_points.min(10_000));
    // rank = ceil(bp / 10000 * n), at least 1.
    let rank = (bp * n).div_ceil(10_000).max(1);
    Some(sorted[(rank - 1) as usize])
}

/// Summary of a set of latency samples, all values in microseconds.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct LatencySummary {
    pub count: u64,
    pub mean: f64,
    pub p50: u32,
    pub p90: u32,
    pub p99: u32,
    pub max: u32,
}

impl LatencySummary {
    /// Sorts `samples` in place and summarises them; all zeros when empty.
    pub fn from_samples(samples: &mut [u32]) -> Self {
        if samples.is_empty() {
            return Self::default();
        }
        samples.sort_unstable();
        let sum: u64 = samples.iter().map(|&s| u64::from(s)).sum();
        let p = |bp| percentile(samples, bp).unwrap_or(0);
        LatencySummary {
            count: samples.len() as u64,
            mean: sum as f64 / samples.len() as f64,
            p50: p(5_000),
            p90: p(9_000),
            p99: p(9_900),
            max: p(10_000),
        }
    }
}

/// Microseconds as milliseconds rounded to 3 decimals, for printing/JSON.
pub fn ms(us: f64) -> f64 {
    us.round() / 1_000.0
}

/// Outcome counters one worker accumulates; merged across workers at the end.
#[derive(Debug, Default)]
pub struct Tally {
    /// Latencies (µs) of the 2xx responses inside the measured window.
    pub samples: Vec<u32>,
    /// Non-2xx responses inside the window, by status code.
    pub statuses: BTreeMap<u16, u64>,
    /// Connection/protocol failures inside the window.
    pub transport_errors: u64,
    /// Requests that exceeded the per-request timeout inside the window.
    pub timeouts: u64,
    /// Latencies (µs) of the same responses by step of a cycle (`Link::step`).
    pub steps: BTreeMap<&'static str, Vec<u32>>,
    /// Failures of each step of a cycle, in any phase, by status (`transport`,
    /// `timeout` for the others).
    pub step_errors: BTreeMap<&'static str, BTreeMap<String, u64>>,
    /// Any failure (status, transport, timeout) during warm-up.
    pub warmup_errors: u64,
    /// Any failure after the window, while a connection finished its order's cycle.
    pub wind_down_errors: u64,
    /// New TCP connections opened after the initial one.
    pub reconnects: u64,
    /// First failure seen, for diagnostics.
    pub first_error: Option<String>,
}

impl Tally {
    /// Counts a failure of `step` (if the request is one), as `what` (a status, or
    /// `transport`, `timeout`).
    pub fn step_failed(&mut self, step: Option<&'static str>, what: impl ToString) {
        if let Some(step) = step {
            *self
                .step_errors
                .entry(step)
                .or_default()
                .entry(what.to_string())
                .or_default() += 1;
        }
    }

    pub fn note_error(&mut self, msg: impl FnOnce() -> String) {
        if self.first_error.is_none() {
            self.first_error = Some(msg());
        }
    }

    pub fn non_2xx(&self) -> u64 {
        self.statuses.values().sum()
    }

    pub fn errors(&self) -> u64 {
        self.non_2xx() + self.transport_errors + self.timeouts
    }

    pub fn merge(&mut self, other: Tally) {
        self.samples.extend_from_slice(&other.samples);
        for (status, n) in other.statuses {
            *self.statuses.entry(status).or_default() += n;
        }
        self.transport_errors += other.transport_errors;
        self.timeouts += other.timeouts;
        for (step, samples) in other.steps {
            self.steps.entry(step).or_default().extend(samples);
        }
        for (step, failures) in other.step_errors {
            let mine = self.step_errors.entry(step).or_default();
            for (what, n) in failures {
                *mine.entry(what).or_default() += n;
            }
        }
        self.warmup_errors += other.warmup_errors;
        self.wind_down_errors += other.wind_down_errors;
        self.reconnects += other.reconnects;
        if self.first_error.is_none() {
            self.first_error = other.first_error;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentile_of_empty_is_none() {
        assert_eq!(percentile(&[], 5_000), None);
    }

    #[test]
    fn percentile_single_sample() {
        for bp in [0, 1, 5_000, 9_900, 10_000] {
            assert_eq!(percentile(&[7], bp), Some(7));
        }
    }

    #[test]
    fn percentile_nearest_rank_on_1_to_100() {
        let v: Vec<u32> = (1..=100).collect();
        assert_eq!(percentile(&v, 0), Some(1));
        assert_eq!(percentile(&v, 100), Some(1)); // p1
        assert_eq!(percentile(&v, 5_000), Some(50));
        assert_eq!(percentile(&v, 9_000), Some(90));
        assert_eq!(percentile(&v, 9_900), Some(99));
        assert_eq!(percentile(&v, 9_990), Some(100));
        assert_eq!(percentile(&v, 10_000), Some(100));
        assert_eq!(percentile(&v, 20_000), Some(100)); // clamped
    }

    #[test]
    fn percentile_rounds_rank_up() {
        let v: Vec<u32> = (1..=10).collect();
        // rank = ceil(0.5 * 10) = 5, ceil(0.99 * 10) = 10, ceil(0.15 * 10) = 2
        assert_eq!(percentile(&v, 5_000), Some(5));
        assert_eq!(percentile(&v, 9_900), Some(10));
        assert_eq!(percentile(&v, 1_500), Some(2));
        let v: Vec<u32> = (1..=3).collect();
        assert_eq!(percentile(&v, 5_000), Some(2));
        assert_eq!(percentile(&v, 9_000), Some(3));
    }

    #[test]
    fn percentile_large_counts_do_not_overflow() {
        let v = vec![5u32; 2_000_000];
        assert_eq!(percentile(&v, 9_999), Some(5));
    }

    #[test]
    fn summary_sorts_and_summarises() {
        let mut v: Vec<u32> = (1..=1000).rev().collect();
        let s = LatencySummary::from_samples(&mut v);
        assert_eq!(s.count, 1000);
        assert_eq!(s.p50, 500);
        assert_eq!(s.p90, 900);
        assert_eq!(s.p99, 990);
        assert_eq!(s.max, 1000);
        assert!((s.mean - 500.5).abs() < 1e-9);
        assert!(v.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn summary_of_nothing_is_zero() {
        assert_eq!(
            LatencySummary::from_samples(&mut []),
            LatencySummary::default()
        );
    }

    #[test]
    fn summary_with_outlier() {
        let mut v = vec![1_000u32; 99];
        v.push(250_000);
        let s = LatencySummary::from_samples(&mut v);
        assert_eq!((s.p50, s.p90, s.p99, s.max), (1_000, 1_000, 1_000, 250_000));
    }

    #[test]
    fn micros_saturates() {
        assert_eq!(micros(Duration::from_micros(1_234)), 1_234);
        assert_eq!(micros(Duration::from_secs(10_000)), u32::MAX);
    }

    #[test]
    fn ms_rounds_to_microsecond() {
        assert_eq!(ms(1_234.0), 1.234);
        assert_eq!(ms(999.6), 1.0);
        assert_eq!(ms(0.0), 0.0);
    }

    #[test]
    fn tallies_merge() {
        let mut a = Tally {
            samples: vec![1, 2],
            transport_errors: 1,
            ..Tally::default()
        };
        a.statuses.insert(500, 2);
        let mut b = Tally {
            samples: vec![3],
            timeouts: 4,
            reconnects: 2,
            ..Tally::default()
        };
        b.statuses.insert(500, 1);
        b.statuses.insert(404, 1);
        b.steps.insert("book", vec![7]);
        b.wind_down_errors = 3;
        b.step_failed(Some("rent-out"), 503);
        b.step_failed(None, 500);
        a.step_failed(Some("rent-out"), 503);
        a.step_failed(Some("rent-out"), "timeout");
        a.steps.insert("book", vec![5]);
        a.steps.insert("create", vec![6]);
        b.note_error(|| "boom".into());
        b.note_error(|| "second".into());
        a.merge(b);
        assert_eq!(a.samples, vec![1, 2, 3]);
        assert_eq!(a.non_2xx(), 4);
        assert_eq!(a.errors(), 4 + 1 + 4);
        assert_eq!(a.reconnects, 2);
        assert_eq!(a.steps["book"], vec![5, 7]);
        assert_eq!(a.steps["create"], vec![6]);
        assert_eq!(a.wind_down_errors, 3);
        assert_eq!(a.step_errors.len(), 1);
        assert_eq!(a.step_errors["rent-out"]["503"], 2);
        assert_eq!(a.step_errors["rent-out"]["timeout"], 1);
        // Failures after the window are not the window's errors.
        assert_eq!(a.errors(), 4 + 1 + 4);
        assert_eq!(a.first_error.as_deref(), Some("boom"));
    }
}
