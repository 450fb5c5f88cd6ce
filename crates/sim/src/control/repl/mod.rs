//! The REPL behind a lease: real JavaScript in QuickJS (through `rquickjs`).
//!
//! Why QuickJS: it builds from vendored C with the `cc` the machine already has (no bindgen,
//! no network), compiles in seconds, and has an interrupt handler that stops a running script
//! at its next step, and an uncatchable one, which is exactly the spec's "stops at next step or
//! loop iteration". Boa would also work but costs minutes of compile time on two cores.
//!
//! Each REPL owns one OS thread (a QuickJS runtime is not `Send`); blocks are sent to it one
//! at a time and answer on a oneshot channel. Globals persist between blocks (`var`, function
//! declarations; top-level `let` too, though only `var`s are listed as variables). Blocks run
//! as async global scripts, so top-level `await main(...)` works.
//!
//! A stop request (timeout or interrupt) sets a flag the interrupt handler reads. A block stuck
//! in a native call never sees it; the lease then abandons this REPL and starts a fresh one.

mod bindings;
mod values;

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use rquickjs::context::EvalOptions;
use rquickjs::{CatchResultExt, CaughtError, Context, Ctx, Object, Promise, Runtime, Value};
use tokio::sync::oneshot;

use crate::desktop::Desktop;
pub use values::Variable;

/// Why a block was asked to stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    Timeout = 1,
    Interrupted = 2,
}

/// `error.kind` of an exec result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    Exception,
    Timeout,
    Interrupted,
}

impl ErrorKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Exception => "exception",
            ErrorKind::Timeout => "timeout",
            ErrorKind::Interrupted => "interrupted",
        }
    }
}

/// What one block produced.
#[derive(Debug, Clone)]
pub struct BlockOutput {
    pub result: serde_json::Value,
    pub logs: Vec<String>,
    pub error: Option<(ErrorKind, String)>,
    /// JPEG of the screen when the block called `machine.screenshot()` (the last capture).
    pub screenshot: Option<Vec<u8>>,
    pub variables: Vec<Variable>,
    pub duration: Duration,
}

/// What the REPL thread needs from the simulator.
#[derive(Clone)]
pub struct Host {
    pub desktop: Desktop,
    /// The simulator's time scale: `machine.wait(ms)` sleeps `ms × scale`.
    pub time_scale: f64,
    /// Set while the whole simulated computer is frozen (`machine.hang(ms, { wholeComputer:
    /// true })`): it answers nothing, not even a REPL restart.
    pub frozen: Arc<AtomicBool>,
}

struct Job {
    code: String,
    reply: oneshot::Sender<BlockOutput>,
}

/// A handle on one REPL thread. Dropping it stops the running block and ends the thread
/// once that block returns.
pub struct Repl {
    jobs: mpsc::Sender<Job>,
    stop: Arc<AtomicU8>,
}

impl Drop for Repl {
    fn drop(&mut self) {
        self.stop
            .store(StopReason::Interrupted as u8, Ordering::SeqCst);
    }
}

impl Repl {
    /// Starts a fresh REPL with no variables. `None` when the engine could not start.
    pub fn start(host: Host) -> Option<Repl> {
        let (jobs, rx) = mpsc::channel::<Job>();
        let stop = Arc::new(AtomicU8::new(0));
        let flag = stop.clone();
        let (ready_tx, ready_rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("sim-repl".into())
            .stack_size(16 * 1024 * 1024)
            .spawn(move || run_thread(host, flag, rx, ready_tx))
            .ok()?;
        ready_rx.recv().ok().filter(|ok| *ok)?;
        Some(Repl { jobs, stop })
    }

    /// Runs one block; the answer comes when it finishes or stops.
    pub fn run(&self, code: String) -> oneshot::Receiver<BlockOutput> {
        let (reply, rx) = oneshot::channel();
        self.stop.store(0, Ordering::SeqCst);
        // A dead thread drops the reply sender, which the caller sees as "no answer".
        let _ = self.jobs.send(Job { code, reply });
        rx
    }

    /// Asks the running block to stop at its next step.
    pub fn stop(&self, reason: StopReason) {
        self.stop.store(reason as u8, Ordering::SeqCst);
    }
}

fn run_thread(
    host: Host,
    stop: Arc<AtomicU8>,
    jobs: mpsc::Receiver<Job>,
    ready: mpsc::Sender<bool>,
) {
    let Ok(rt) = Runtime::new() else {
        let _ = ready.send(false);
        return;
    };
    rt.set_memory_limit(256 * 1024 * 1024);
    rt.set_max_stack_size(8 * 1024 * 1024);
    let flag = stop.clone();
    rt.set_interrupt_handler(Some(Box::new(move || flag.load(Ordering::SeqCst) != 0)));
    let Ok(ctx) = Context::full(&rt) else {
        let _ = ready.send(false);
        return;
    };
    let scratch = bindings::Scratch::default();
    let installed = ctx.with(|ctx| bindings::install(&ctx, &host, &scratch, &stop).is_ok());
    let baseline = ctx.with(|ctx| values::global_names(&ctx));
    let _ = ready.send(installed);
    if !installed {
        return;
    }
    while let Ok(job) = jobs.recv() {
        scratch.reset();
        let started = Instant::now();
        let (result, error) = ctx.with(|ctx| evaluate(&ctx, &job.code));
        let reason = stop.load(Ordering::SeqCst);
        let error = error.map(|(kind, message)| match reason {
            r if r == StopReason::Timeout as u8 => (
                ErrorKind::Timeout,
                "The block ran past its timeoutMs and was stopped.".to_owned(),
            ),
            r if r == StopReason::Interrupted as u8 => (
                ErrorKind::Interrupted,
                "The block was interrupted.".to_owned(),
            ),
            _ => (kind, message),
        });
        let variables = ctx.with(|ctx| values::variables(&ctx, &baseline));
        let (logs, screenshot) = scratch.take();
        let out = BlockOutput {
            result,
            logs,
            error,
            screenshot,
            variables,
            duration: started.elapsed(),
        };
        let _ = job.reply.send(out);
    }
}

/// Runs `code` as an async global script and settles it.
fn evaluate<'js>(ctx: &Ctx<'js>, code: &str) -> (serde_json::Value, Option<(ErrorKind, String)>) {
    let mut opts = EvalOptions::default();
    opts.global = true;
    opts.strict = false;
    opts.promise = true;
    let evaluated: rquickjs::Result<Value> = ctx.eval_with_options(code, opts);
    let settled = evaluated.catch(ctx).and_then(|v| match v.into_promise() {
        Some(p) => settled(ctx, &p),
        None => Ok(serde_json::Value::Null),
    });
    match settled {
        Ok(v) => (v, None),
        Err(e) => (
            serde_json::Value::Null,
            Some((ErrorKind::Exception, describe(ctx, e))),
        ),
    }
}

fn settled<'js>(ctx: &Ctx<'js>, p: &Promise<'js>) -> Result<serde_json::Value, CaughtError<'js>> {
    let completion: Value = p.finish().catch(ctx)?;
    let value = completion
        .as_object()
        .map(|o: &Object| o.get::<_, Value>("value"))
        .transpose()
        .catch(ctx)?;
    Ok(value
        .map(|v| values::to_json(ctx, v))
        .unwrap_or(serde_json::Value::Null))
}

fn describe<'js>(ctx: &Ctx<'js>, e: CaughtError<'js>) -> String {
    match e {
        CaughtError::Exception(ex) => {
            let name: String = ex.get("name").unwrap_or_else(|_| "Error".to_owned());
            match ex.message() {
                Some(m) if !m.is_empty() => format!("{name}: {m}"),
                _ => name,
            }
        }
        CaughtError::Value(v) => format!("Uncaught {}", values::preview(ctx, &v)),
        CaughtError::Error(rquickjs::Error::WouldBlock) => {
            "The block awaited a promise that never settles.".to_owned()
        }
        CaughtError::Error(e) => e.to_string(),
    }
}
