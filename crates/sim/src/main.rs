//! `porthole-sim`: serves the simulator and prints one ready JSON line on stdout. Logs go to
//! stderr so the ready line is the only thing on stdout.

use clap::Parser;
use porthole_sim::{Config, FaultSpec, Shapes, Sim, TurnIdIn};
use std::io::Write;
use std::net::SocketAddr;

/// A faithful simulator of the Agent Computer Service.
#[derive(Parser)]
#[command(name = "porthole-sim", version)]
struct Args {
    /// Address to listen on; port 0 picks a free port.
    #[arg(long, default_value = "127.0.0.1:0")]
    addr: SocketAddr,
    /// Multiplies every documented delay and hourly window (0.01 = 100 times faster).
    #[arg(long, default_value_t = 1.0)]
    time_scale: f64,
    /// Injected failures, e.g. `drop-stream=0.1,http-500=0.05,slow=0.1:2000ms`.
    #[arg(long, default_value = "")]
    faults: String,
    /// Seed for reproducible faults.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Where `turnId` appears: message, start, session, poll (comma-separated) or none.
    #[arg(long, default_value = "message,start,poll")]
    turn_id_in: String,
    /// Answer shapes: `contract` (the contract's) or `makers` (what the makers' own client
    /// shows the real service may send: blank bodies, rows without `kind`, ...).
    #[arg(long, default_value = "contract")]
    shapes: String,
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "porthole_sim=info".into()),
        )
        .init();
    let args = Args::parse();
    let faults = match FaultSpec::parse(&args.faults) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("porthole-sim: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    let turn_id_in = match TurnIdIn::parse(&args.turn_id_in) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("porthole-sim: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    let shapes = match Shapes::parse(&args.shapes) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("porthole-sim: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    let config = Config {
        turn_id_in,
        shapes,
        addr: args.addr,
        time_scale: args.time_scale,
        faults,
        seed: args.seed,
        world: None,
    };
    let sim = match Sim::start(config).await {
        Ok(sim) => sim,
        Err(e) => {
            eprintln!("porthole-sim: {e}");
            return std::process::ExitCode::from(1);
        }
    };
    {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{}", sim.ready_line());
        let _ = out.flush();
    }
    let _ = tokio::signal::ctrl_c().await;
    sim.shutdown().await;
    std::process::ExitCode::SUCCESS
}
