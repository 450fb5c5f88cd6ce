//! What the live bench reads of this run's processes in /proc: CPU time (by thread for the
//! app) and resident memory. The run marks its own processes with an environment variable,
//! since other engineers' apps may be running on the same machine.

fn bench_run_mark() -> String {
    format!("PORTHOLE_LIVE_BENCH_RUN={}", std::process::id())
}

/// CPU seconds of the benchmark's app by thread name (threads of one name summed).
pub(super) fn app_threads() -> std::collections::BTreeMap<String, f64> {
    let mut out = std::collections::BTreeMap::new();
    for dir in bench_pids("porthole") {
        let Ok(tasks) = std::fs::read_dir(dir.join("task")) else {
            continue;
        };
        for task in tasks.flatten() {
            let comm = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
            let stat = std::fs::read_to_string(task.path().join("stat")).unwrap_or_default();
            *out.entry(comm.trim().to_owned()).or_default() += cpu_seconds(&stat);
        }
    }
    out
}

/// The /proc directories of this run's processes named `name`.
fn bench_pids(name: &str) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .map(|e| e.path())
        .filter(|dir| {
            std::fs::read_to_string(dir.join("comm")).is_ok_and(|c| c.trim() == name)
                && std::fs::read(dir.join("environ"))
                    .unwrap_or_default()
                    .split(|b| *b == 0)
                    .any(|var| var == bench_run_mark().as_bytes())
        })
        .collect()
}

/// utime + stime of a /proc `stat` line, in seconds.
fn cpu_seconds(stat: &str) -> f64 {
    // Fields after the ")" closing the command name: utime and stime are the 12th and 13th.
    let rest: Vec<&str> = stat
        .rsplit_once(')')
        .map(|(_, r)| r.split_whitespace().collect())
        .unwrap_or_default();
    let ticks = |i: usize| {
        rest.get(i)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) + ticks(12)) / 100.0
}

/// CPU seconds and resident memory (bytes) of the benchmark's app and web process, found by
/// this run's own environment variable (other engineers' apps may be running too).
pub(super) fn bench_processes() -> std::collections::BTreeMap<String, (f64, f64)> {
    let mut out = std::collections::BTreeMap::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return out;
    };
    for entry in entries.flatten() {
        let dir = entry.path();
        let environ = std::fs::read(dir.join("environ")).unwrap_or_default();
        if !environ
            .split(|b| *b == 0)
            .any(|var| var == bench_run_mark().as_bytes())
        {
            continue;
        }
        let comm = std::fs::read_to_string(dir.join("comm")).unwrap_or_default();
        let name = comm.trim().to_owned();
        // The network process too: it holds the page's Blobs.
        if name != "porthole"
            && name != "porthole-sim"
            && !name.starts_with("WebKitWebProces")
            && !name.starts_with("WebKitNetworkPr")
        {
            continue;
        }
        let stat = std::fs::read_to_string(dir.join("stat")).unwrap_or_default();
        let cpu = cpu_seconds(&stat);
        let rss_pages = std::fs::read_to_string(dir.join("statm"))
            .ok()
            .and_then(|m| {
                m.split_whitespace()
                    .nth(1)
                    .and_then(|v| v.parse::<f64>().ok())
            })
            .unwrap_or(0.0);
        out.insert(name, (cpu, rss_pages * 4096.0));
    }
    out
}
