//! `run`: a fixed request mix at a fixed number of keep-alive connections.

use std::sync::Arc;
use std::time::Duration;

use anyhow::{Result, bail};
use hyper::body::Bytes;
use serde_json::json;
use tokio::task::JoinSet;
use tokio::time::Instant;

use crate::conn::{Conn, Reply, Target};
use crate::plan::{Link, Mix, OpenOrder, Plan};
use crate::stats::{LatencySummary, Tally, micros, ms};

pub struct RunOpts {
    pub mix: Mix,
    pub connections: usize,
    pub duration: Duration,
    pub warmup: Duration,
    pub timeout: Duration,
    pub id_pages: u64,
    pub threads: usize,
    /// Background log-in loops and the account they use.
    pub logins: Option<(usize, crate::logins::Account)>,
    /// Webhook endpoints subscribed to every event during the run (`hooks`).
    pub webhooks: usize,
}

/// The measured window: responses completing in `start..end` count.
#[derive(Clone, Copy)]
struct Window {
    start: Instant,
    end: Instant,
}

pub async fn run(target: Arc<Target>, base_url: &str, opts: RunOpts) -> Result<()> {
    if opts.connections == 0 {
        bail!("--connections must be at least 1");
    }
    let mut probe = Conn::new(target.clone());
    let plan =
        Arc::new(Plan::discover(&mut probe, opts.mix, opts.id_pages, opts.connections).await?);
    let hooks = match opts.webhooks {
        0 => None,
        n => Some(crate::hooks::start(&mut probe, n).await?),
    };
    eprintln!(
        "run {}: targets {}; opening {} connections",
        opts.mix.name(),
        plan.describe(),
        opts.connections
    );

    // Open every connection before the clock starts.
    let mut opening = JoinSet::new();
    for _ in 0..opts.connections {
        let target = target.clone();
        opening.spawn(async move {
            let mut conn = Conn::new(target);
            let result = conn.ready().await;
            (conn, result)
        });
    }
    let mut conns = Vec::with_capacity(opts.connections);
    let mut connect_failures = 0;
    let mut connect_error = None;
    while let Some(joined) = opening.join_next().await {
        let (conn, result) = joined?;
        if let Err(e) = result {
            connect_failures += 1;
            connect_error.get_or_insert(format!("{e:#}"));
        }
        conns.push(conn);
    }
    if connect_failures == opts.connections {
        bail!(
            "could not open any connection: {}",
            connect_error.unwrap_or_default()
        );
    }
    if connect_failures > 0 {
        eprintln!(
            "warning: {connect_failures} of {} connections failed to open (workers will retry): {}",
            opts.connections,
            connect_error.unwrap_or_default()
        );
    }

    let start = Instant::now() + opts.warmup;
    let window = Window {
        start,
        end: start + opts.duration,
    };
    let logins = opts.logins.clone().map(|(n, account)| {
        tokio::spawn(crate::logins::background(
            target.clone(),
            n,
            account,
            window.end,
        ))
    });
    let stride = opts.connections as u64;
    let mut workers = JoinSet::new();
    for (w, conn) in conns.into_iter().enumerate() {
        let plan = plan.clone();
        workers.spawn(worker(w as u64, stride, conn, plan, window, opts.timeout));
    }
    let mut tally = Tally::default();
    while let Some(joined) = workers.join_next().await {
        tally.merge(joined?);
    }
    let logins = match logins {
        Some(task) => Some(task.await?),
        None => None,
    };
    let webhooks = match hooks {
        Some(hooks) => Some(hooks.finish(&mut probe, Duration::from_secs(30)).await?),
        None => None,
    };

    report(base_url, &opts, &plan, tally, logins, webhooks);
    Ok(())
}

async fn worker(
    first: u64,
    stride: u64,
    mut conn: Conn,
    plan: Arc<Plan>,
    window: Window,
    timeout: Duration,
) -> Tally {
    let mut tally = Tally::default();
    let opened_before = conn.opened;
    let mut g = first;
    // The line item of this connection's last stock check-out, until it is checked in.
    let mut line_item = None;
    // The service this connection started last, until it is completed.
    let mut service: Option<i64> = None;
    // The order of this connection's last create in an order cycle, while its cycle
    // goes on, and how many orders it has created (each one's period follows from it).
    let mut order: Option<OpenOrder> = None;
    let mut orders_made = 0;
    loop {
        let (method, call) = plan.pick(g);
        let (method, mut uri, link) = (method.clone(), call.uri.clone(), call.link);
        // After the window a connection only finishes its order's cycle (when the plan
        // settles): its steps are not counted, their failures are `wind_down_errors`.
        if Instant::now() >= window.end && !(plan.settles && order.is_some() && link.on_order()) {
            break;
        }
        g += stride;
        let form = match (link, plan.periods) {
            (Link::CheckInLineItem, _) => match line_item.take() {
                Some(id) => Some(Bytes::from(format!("selected_line_items={id}"))),
                // The check-out failed (and counted as an error): nothing to check in.
                None => continue,
            },
            (Link::CompleteService, _) => match service.take() {
                Some(id) => {
                    let path = uri
                        .path()
                        .replace("/services/0/", &format!("/services/{id}/"));
                    match conn.target().uri(&path) {
                        Ok(u) => uri = u,
                        Err(e) => {
                            tally.transport_errors += 1;
                            tally.note_error(|| format!("{path}: {e:#}"));
                            continue;
                        }
                    }
                    None
                }
                // The start failed (and counted as an error): nothing to complete.
                None => continue,
            },
            (Link::KeepOrder, Some(periods)) => {
                Some(periods.create_form(call.form.as_deref().unwrap_or_default(), orders_made))
            }
            (_, Some(periods)) if link.on_order() => match &order {
                Some(open) => {
                    let (path, form) = open.request(link, call.form.as_deref(), periods);
                    match conn.target().uri(&path) {
                        Ok(u) => uri = u,
                        Err(e) => {
                            tally.transport_errors += 1;
                            tally.note_error(|| format!("{path}: {e:#}"));
                            order = None;
                            continue;
                        }
                    }
                    Some(form)
                }
                // A step before failed (and counted as an error): the connection starts
                // again with its next create.
                None => continue,
            },
            _ => call.form.clone(),
        };
        // Requests still in flight when the window closes are abandoned, so a
        // stuck request cannot stretch the run by up to `timeout`; a plan that settles
        // waits for their answer, which tells where its order's cycle stands.
        let timed_out_at = Instant::now() + timeout;
        let deadline = if plan.settles {
            timed_out_at
        } else {
            timed_out_at.min(window.end)
        };
        let outcome = tokio::time::timeout_at(deadline, async {
            conn.ready().await?;
            let req = conn
                .target()
                .with_form(method.clone(), uri.clone(), form.clone());
            let sent = Instant::now();
            let reply = conn.send(req).await?;
            anyhow::Ok((sent, reply))
        })
        .await;
        let done = Instant::now();
        if done >= window.end && !plan.settles {
            // Completed, failed or cut off after the window closed: not part of
            // the run (and the loop is over anyway).
            break;
        }
        let phase = if done < window.start {
            Phase::Warmup
        } else if done < window.end {
            Phase::Window
        } else {
            Phase::WindDown
        };
        // A check-out counts only if its answer names the line item to check in; an
        // order's create only if it names the order; a rent-out only if it names the
        // balance to pay; a return only if it completed the order.
        if link == Link::KeepOrder {
            // A new cycle: whatever its create answers replaces the last order.
            order = None;
        }
        let usable = match &outcome {
            Ok(Ok((_, reply))) if reply.is_success() => match link {
                Link::KeepLineItem => {
                    line_item = line_item_id(reply);
                    line_item.is_some()
                }
                Link::KeepService => {
                    service = reply.json().ok().and_then(|v| v["service"]["id"].as_i64());
                    service.is_some()
                }
                Link::KeepOrder => {
                    order = order_number(reply).map(|number| OpenOrder {
                        number,
                        made: orders_made,
                        balance: None,
                    });
                    if order.is_some() {
                        orders_made += 1;
                    }
                    order.is_some()
                }
                Link::RentOut => {
                    let balance = balance_due(reply);
                    let kept = balance.is_some();
                    if let Some(open) = &mut order {
                        open.balance = balance;
                    }
                    kept
                }
                Link::Return => order_state(reply).as_deref() == Some("completed"),
                _ => true,
            },
            _ => false,
        };
        if link.on_order() && (!usable || link == Link::Return) {
            // The cycle is over, or broken: the next step is the next create.
            order = None;
        }
        // The request as an error message shows it: with its form, if any.
        let request = || match &form {
            Some(f) => format!("{method} {uri} {}", String::from_utf8_lossy(f)),
            None => format!("{method} {uri}"),
        };
        match outcome {
            Ok(Ok((sent, reply))) if reply.is_success() && usable => {
                if phase == Phase::Window {
                    let took = micros(done - sent);
                    tally.samples.push(took);
                    if let Some(step) = link.step() {
                        tally.steps.entry(step).or_default().push(took);
                    }
                }
            }
            Ok(Ok((_, reply))) => {
                tally.step_failed(link.step(), reply.status);
                match phase {
                    Phase::Window => *tally.statuses.entry(reply.status).or_default() += 1,
                    Phase::Warmup => tally.warmup_errors += 1,
                    Phase::WindDown => tally.wind_down_errors += 1,
                }
                tally.note_error(|| {
                    format!(
                        "{} answered {}{}: {}",
                        request(),
                        reply.status,
                        match (reply.is_success(), link.kept()) {
                            (true, Some(kept)) => format!(" without {kept}"),
                            _ => String::new(),
                        },
                        reply.snippet()
                    )
                });
            }
            Ok(Err(e)) => {
                tally.step_failed(link.step(), "transport");
                match phase {
                    Phase::Window => tally.transport_errors += 1,
                    Phase::Warmup => tally.warmup_errors += 1,
                    Phase::WindDown => tally.wind_down_errors += 1,
                }
                tally.note_error(|| format!("{}: {e:#}", request()));
                // Don't spin if the server is refusing connections.
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            Err(_) => {
                conn.reset();
                tally.step_failed(link.step(), "timeout");
                match phase {
                    Phase::Window => tally.timeouts += 1,
                    Phase::Warmup => tally.warmup_errors += 1,
                    Phase::WindDown => tally.wind_down_errors += 1,
                }
                tally.note_error(|| format!("{}: no answer within {timeout:?}", request()));
            }
        }
    }
    tally.reconnects = conn.opened.saturating_sub(opened_before.max(1));
    tally
}

/// Where a request's answer came in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Warmup,
    Window,
    /// After the window, finishing an order's cycle.
    WindDown,
}

/// `line_item.id` of a stock check-out's answer.
fn line_item_id(reply: &Reply) -> Option<i64> {
    reply.json().ok()?["line_item"]["id"].as_i64()
}

/// `basket.sequence_num` of an order's create.
fn order_number(reply: &Reply) -> Option<i64> {
    reply.json().ok()?["basket"]["sequence_num"].as_i64()
}

/// `basket.balance_due` of an order's answer (an amount, `"123.00"`).
fn balance_due(reply: &Reply) -> Option<String> {
    let v = reply.json().ok()?;
    let due = &v["basket"]["balance_due"];
    due.as_str()
        .map(str::to_owned)
        .or_else(|| due.as_f64().map(|d| format!("{d:.2}")))
}

/// `basket.basket_state` of an order's answer.
fn order_state(reply: &Reply) -> Option<String> {
    reply.json().ok()?["basket"]["basket_state"]
        .as_str()
        .map(str::to_owned)
}

fn report(
    base_url: &str,
    opts: &RunOpts,
    plan: &Plan,
    mut tally: Tally,
    logins: Option<crate::logins::LoginTally>,
    webhooks: Option<serde_json::Value>,
) {
    let lat = LatencySummary::from_samples(&mut tally.samples);
    let secs = opts.duration.as_secs_f64();
    let rps = if secs > 0.0 {
        lat.count as f64 / secs
    } else {
        0.0
    };
    let errors = tally.errors();
    let non_2xx: serde_json::Map<String, serde_json::Value> = tally
        .statuses
        .iter()
        .map(|(s, n)| (s.to_string(), json!(n)))
        .collect();

    eprintln!(
        "{mix}: {rps:.1} req/s | p50 {p50:.3} ms, p90 {p90:.3} ms, p99 {p99:.3} ms, max {max:.3} ms \
         | {ok} ok, {errors} errors ({non} non-2xx, {tr} transport, {to} timeouts) \
         | {c} connections, {secs}s after {warm}s warm-up, {threads} threads",
        mix = opts.mix.name(),
        p50 = ms(lat.p50.into()),
        p90 = ms(lat.p90.into()),
        p99 = ms(lat.p99.into()),
        max = ms(lat.max.into()),
        ok = lat.count,
        non = tally.non_2xx(),
        tr = tally.transport_errors,
        to = tally.timeouts,
        c = opts.connections,
        warm = opts.warmup.as_secs_f64(),
        threads = opts.threads,
    );
    // Each step of a cycle on its own, in the order of the cycle.
    let mut steps: Vec<(&'static str, Vec<u32>)> =
        std::mem::take(&mut tally.steps).into_iter().collect();
    steps.sort_by_key(|(step, _)| Link::STEPS.iter().position(|s| s == step));
    let steps: Vec<(&'static str, LatencySummary)> = steps
        .into_iter()
        .map(|(step, mut samples)| (step, LatencySummary::from_samples(&mut samples)))
        .collect();
    let per_s = |count: u64| {
        if secs > 0.0 {
            (count as f64 / secs * 10.0).round() / 10.0
        } else {
            0.0
        }
    };
    for (step, lat) in &steps {
        eprintln!(
            "  {step}: {rps:.1} req/s | p50 {p50:.3} ms, p99 {p99:.3} ms, max {max:.3} ms",
            rps = per_s(lat.count),
            p50 = ms(lat.p50.into()),
            p99 = ms(lat.p99.into()),
            max = ms(lat.max.into()),
        );
    }
    for (step, failures) in &tally.step_errors {
        eprintln!("  {step} failed: {failures:?}");
    }
    if tally.wind_down_errors > 0 {
        eprintln!(
            "{} errors after the window, finishing cycles",
            tally.wind_down_errors
        );
    }
    if let Some(e) = &tally.first_error {
        eprintln!("first error: {e}");
    }
    if let Some(w) = &webhooks {
        eprintln!(
            "webhooks: {} endpoints, {} deliveries received, lag p50 {} ms, p99 {} ms, max {} ms",
            w["endpoints"], w["received"], w["lag_p50_ms"], w["lag_p99_ms"], w["lag_max_ms"]
        );
    }
    if let Some(l) = &logins {
        eprintln!(
            "background log-ins: {} passwords checked, {} other answers{}",
            l.checked,
            l.refused,
            l.first_error
                .as_deref()
                .map(|e| format!(" (first: {e})"))
                .unwrap_or_default()
        );
    }
    let line = json!({
        "bench": "run",
        "mix": opts.mix.name(),
        "base_url": base_url,
        "connections": opts.connections,
        "threads": opts.threads,
        "duration_s": secs,
        "warmup_s": opts.warmup.as_secs_f64(),
        "requests": lat.count,
        "rps": (rps * 10.0).round() / 10.0,
        "p50_ms": ms(lat.p50.into()),
        "p90_ms": ms(lat.p90.into()),
        "p99_ms": ms(lat.p99.into()),
        "max_ms": ms(lat.max.into()),
        "mean_ms": ms(lat.mean),
        "errors": errors,
        "non_2xx": non_2xx,
        "transport_errors": tally.transport_errors,
        "timeouts": tally.timeouts,
        "warmup_errors": tally.warmup_errors,
        "wind_down_errors": tally.wind_down_errors,
        "step_errors": tally.step_errors,
        "steps": steps
            .iter()
            .map(|(step, lat)| {
                (
                    step.to_string(),
                    json!({
                        "requests": lat.count,
                        "rps": per_s(lat.count),
                        "p50_ms": ms(lat.p50.into()),
                        "p90_ms": ms(lat.p90.into()),
                        "p99_ms": ms(lat.p99.into()),
                        "max_ms": ms(lat.max.into()),
                        "mean_ms": ms(lat.mean),
                    }),
                )
            })
            .collect::<serde_json::Map<_, _>>(),
        "reconnects": tally.reconnects,
        "targets": plan.targets(),
        "first_error": tally.first_error,
        "webhooks": webhooks,
        "background_logins": logins.map(|l| json!({
            "workers": opts.logins.as_ref().map_or(0, |(n, _)| *n),
            "checked": l.checked,
            "refused": l.refused,
            "first_error": l.first_error,
        })),
    });
    println!("{line}");
}
