//! Launch-to-machine-list time and idle memory of the app, measured the way a person meets
//! them: the built app opened in a real window (under `scripts/bench-launch.sh`), timed from
//! the moment the WebDriver session asks for it until the machine list shows, then its
//! memory (resident set of the app and its WebKit processes) after it sat idle.
//! A benchmark, not a test: it prints figures for BENCHMARKS.md and asserts nothing.

use std::time::{Duration, Instant};

use porthole_e2e::{App, Eventually};

#[tokio::main]
async fn main() -> porthole_e2e::Result<()> {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(5);
    let mut times = Vec::new();
    let mut memory = Vec::new();
    for run in 0..runs {
        let start = Instant::now();
        let app = App::launch().await?;
        Eventually::new(&app.driver)
            .at_least("machine-row", 3)
            .await?;
        let elapsed = start.elapsed();
        times.push(elapsed);
        tokio::time::sleep(Duration::from_secs(10)).await;
        let rss = rss_of(&["porthole", "WebKitWebProcess", "WebKitNetworkProcess"]);
        memory.push(rss.clone());
        println!("run {run}: machine list after {elapsed:?}; idle RSS {rss:?}");
        app.quit().await;
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    times.sort();
    println!(
        "launch to machine list: median {:?}, min {:?}, max {:?} over {runs} runs",
        times[times.len() / 2],
        times[0],
        times[times.len() - 1]
    );
    Ok(())
}

/// Resident memory in MiB per process name, summed over processes of that name.
fn rss_of(names: &[&str]) -> Vec<(String, u64)> {
    let mut out: Vec<(String, u64)> = names.iter().map(|n| (n.to_string(), 0)).collect();
    let Ok(procs) = std::fs::read_dir("/proc") else {
        return out;
    };
    for p in procs.flatten() {
        let path = p.path();
        let Ok(comm) = std::fs::read_to_string(path.join("comm")) else {
            continue;
        };
        let comm = comm.trim();
        let Some(slot) = out
            .iter_mut()
            .find(|(n, _)| comm.starts_with(&n[..n.len().min(15)]))
        else {
            continue;
        };
        if let Ok(status) = std::fs::read_to_string(path.join("status")) {
            if let Some(kb) = status
                .lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse::<u64>().ok())
            {
                slot.1 += kb / 1024;
            }
        }
    }
    out
}
