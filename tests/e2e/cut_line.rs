//! A line to the simulator that the test can cut and mend, as a network that goes away and
//! comes back: while cut, nothing listens on its address (a new connection is refused) and
//! every connection through it is closed; mended, it listens on the same address again.

use std::net::SocketAddr;

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

pub(crate) struct CutLine {
    /// `http://127.0.0.1:<port>`: give this to the app instead of the simulator's address.
    pub(crate) url: String,
    cut: watch::Sender<bool>,
}

impl CutLine {
    pub(crate) async fn to(upstream: &str) -> CutLine {
        let upstream: SocketAddr = upstream
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .parse()
            .expect("the simulator's address");
        let first = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let here = first.local_addr().expect("address");
        let (cut, mut cut_rx) = watch::channel(false);
        tokio::spawn(async move {
            let mut listener = Some(first);
            loop {
                let open = match listener.take() {
                    Some(l) => l,
                    None => match TcpListener::bind(here).await {
                        Ok(l) => l,
                        Err(_) => {
                            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                            continue;
                        }
                    },
                };
                loop {
                    tokio::select! {
                        accepted = open.accept() => {
                            let Ok((mut inbound, _)) = accepted else { continue };
                            let mut line = cut_rx.clone();
                            tokio::spawn(async move {
                                let Ok(mut outbound) = TcpStream::connect(upstream).await else { return };
                                tokio::select! {
                                    _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound) => {}
                                    _ = line.wait_for(|cut| *cut) => {}
                                }
                            });
                        }
                        changed = cut_rx.changed() => {
                            if changed.is_err() { return; }
                            if *cut_rx.borrow() { break; }
                        }
                    }
                }
                drop(open);
                if cut_rx.wait_for(|cut| !*cut).await.is_err() {
                    return;
                }
            }
        });
        CutLine {
            url: format!("http://{here}"),
            cut,
        }
    }

    pub(crate) fn cut(&self) {
        self.cut.send_replace(true);
    }

    pub(crate) fn mend(&self) {
        self.cut.send_replace(false);
    }
}
