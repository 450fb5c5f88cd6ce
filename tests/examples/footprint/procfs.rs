//! What `/proc` says about the measured processes: which one runs a binary, when it started,
//! the machine's uptime and load, a process's tree, names, PSS and CPU time. Apart from
//! `footprint.rs`, which launches the apps and reads these.

use std::path::Path;

use porthole_e2e::Result;

pub(crate) fn process_of(binary: &Path) -> Option<u32> {
    let binary = binary.canonicalize().ok()?;
    std::fs::read_dir("/proc").ok()?.flatten().find_map(|e| {
        let pid: u32 = e.file_name().to_str()?.parse().ok()?;
        (std::fs::read_link(e.path().join("exe")).ok()? == binary).then_some(pid)
    })
}

/// The fields of `/proc/<pid>/stat` after the command name (field 3 is index 0).
pub(crate) fn stat_fields(pid: u32) -> Option<Vec<String>> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    Some(rest.split_whitespace().map(str::to_owned).collect())
}

pub(crate) fn start_ticks(pid: u32) -> Result<u64> {
    Ok(stat_fields(pid)
        .and_then(|f| f.get(19)?.parse().ok())
        .ok_or("no start time")?)
}

pub(crate) fn uptime() -> Result<f64> {
    let text = std::fs::read_to_string("/proc/uptime")?;
    Ok(text
        .split_whitespace()
        .next()
        .and_then(|v| v.parse().ok())
        .ok_or("no uptime")?)
}

pub(crate) fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

/// The process and every process under it.
pub(crate) fn tree(root: u32) -> Vec<u32> {
    let mut parent_of = Vec::new();
    if let Ok(entries) = std::fs::read_dir("/proc") {
        for e in entries.flatten() {
            let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
                continue;
            };
            if let Some(ppid) = stat_fields(pid).and_then(|f| f.get(1)?.parse::<u32>().ok()) {
                parent_of.push((pid, ppid));
            }
        }
    }
    let mut out = vec![root];
    let mut i = 0;
    while i < out.len() {
        let p = out[i];
        out.extend(parent_of.iter().filter(|(_, pp)| *pp == p).map(|(c, _)| *c));
        i += 1;
    }
    out
}

pub(crate) fn comm(pid: u32) -> Option<String> {
    Some(
        std::fs::read_to_string(format!("/proc/{pid}/comm"))
            .ok()?
            .trim()
            .to_owned(),
    )
}

pub(crate) fn pss_kib(pid: u32) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")).ok()?;
    text.lines()
        .find(|l| l.starts_with("Pss:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// utime + stime in clock ticks (1/100 s) of each process of the tree, by name.
pub(crate) fn cpu_ticks(root: u32) -> Vec<(String, u64)> {
    let mut out: Vec<(String, u64)> = Vec::new();
    for p in tree(root) {
        let (Some(name), Some(f)) = (comm(p), stat_fields(p)) else {
            continue;
        };
        let t = f.get(11).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0)
            + f.get(12).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
        match out.iter_mut().find(|(n, _)| *n == name) {
            Some((_, sum)) => *sum += t,
            None => out.push((name, t)),
        }
    }
    out
}
