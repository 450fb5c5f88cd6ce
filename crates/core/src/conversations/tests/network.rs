//! A dropped network is not a failed task: with the connection to the service cut for 200 s
//! of the client's time (far past the 25–40 s after which tasks used to fail), the running
//! task reads "reconnecting", never failed, and ends with its answer once the network is
//! back, in the same run or after a restart.
//!
//! The network is a loopback relay in front of the simulator that forwards bytes unchanged;
//! cutting it closes its listener and drops the connections it carries.

use std::net::SocketAddr;

use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::task::{AbortHandle, JoinHandle};

use super::*;

/// Steps of two scaled minutes each: the task is still running after the outage.
const TASK: &str = "Take your time and look up the weather in Oslo";

/// 200 s of the client's time.
const OUTAGE: Duration = Duration::from_secs(2);

struct Relay {
    addr: SocketAddr,
    upstream: SocketAddr,
    accepting: Option<JoinHandle<()>>,
    links: Arc<Mutex<Vec<AbortHandle>>>,
}

impl Relay {
    async fn start(sim: &RunningSim) -> Relay {
        let upstream: SocketAddr = sim.base_url.trim_start_matches("http://").parse().unwrap();
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let mut relay = Relay {
            addr: listener.local_addr().unwrap(),
            upstream,
            accepting: None,
            links: Arc::default(),
        };
        relay.serve(listener);
        relay
    }

    fn serve(&mut self, listener: TcpListener) {
        let (links, upstream) = (self.links.clone(), self.upstream);
        self.accepting = Some(tokio::spawn(async move {
            while let Ok((mut near, _)) = listener.accept().await {
                let link = tokio::spawn(async move {
                    if let Ok(mut far) = TcpStream::connect(upstream).await {
                        let _ = tokio::io::copy_bidirectional(&mut near, &mut far).await;
                    }
                });
                links.lock().unwrap().push(link.abort_handle());
            }
        }));
    }

    /// The network goes: new connections are refused, open ones end.
    fn cut(&mut self) {
        if let Some(accepting) = self.accepting.take() {
            accepting.abort();
        }
        for link in self.links.lock().unwrap().drain(..) {
            link.abort();
        }
    }

    /// The network is back, at the same address.
    fn restore(&mut self) {
        let socket = TcpSocket::new_v4().unwrap();
        socket.set_reuseaddr(true).unwrap();
        socket.bind(self.addr).unwrap();
        self.serve(socket.listen(64).unwrap());
    }

    fn client(&self, sim: &RunningSim) -> Client {
        let key = sim.account("ada").api_key.clone().expect("a key");
        Client::with_config(
            &format!("http://{}", self.addr),
            Credential::api_key(&key).unwrap(),
            ClientConfig::time_scaled(SCALE),
        )
        .unwrap()
    }
}

/// The app connected through a relay to the simulator, a task running.
async fn running_through_relay() -> (App, Relay, String) {
    let app = app().await;
    let relay = Relay::start(&app.sim).await;
    app.connection
        .activate(relay.client(&app.sim), SCOPE.into());
    let id = app.new_conversation().await;
    app.send(&id, TASK).await.unwrap();
    app.until(&id, |c| {
        c.status.is_active()
            && c.items
                .iter()
                .any(|i| matches!(i, ThreadItem::Progress { .. }))
    })
    .await;
    (app, relay, id)
}

#[tokio::test]
async fn a_task_reads_reconnecting_while_the_network_is_gone_and_ends_with_its_answer() {
    let (app, mut relay, id) = running_through_relay().await;
    relay.cut();
    let cut = app.until(&id, |c| c.reconnecting).await;
    assert!(cut.status.is_active(), "{:?}", cut.status);
    tokio::time::sleep(OUTAGE).await;
    let still = app.core.store().get(&id).unwrap();
    assert!(still.status.is_active(), "not failed: {:#?}", still.items);
    assert!(app.core.is_following(&id));

    relay.restore();
    let done = app.until(&id, ended).await;
    assert_eq!(done.status, TaskStatus::Succeeded, "{:#?}", done.items);
    assert!(!done.reconnecting);
    assert!(done.failure.is_none());
    assert_eq!(answers(&done).len(), 1, "{:#?}", done.items);
}

#[tokio::test]
async fn a_task_cut_off_is_followed_again_after_a_restart() {
    let (app, mut relay, id) = running_through_relay().await;
    relay.cut();
    app.until(&id, |c| c.reconnecting).await;
    // The app quits while the network is gone, and opens again while it is still gone.
    app.core.connection_left();
    let told = Arc::new(Told::default());
    // The app ends: what it changed is on disk (`lib.rs` flushes at exit).
    app.core.store().flush();
    let restarted = core_in(app.dir.path(), &app.connection, &told);
    restarted.resume(&relay.client(&app.sim), SCOPE);
    tokio::time::sleep(OUTAGE).await;
    let still = restarted.store().get(&id).unwrap();
    assert!(still.status.is_active(), "not failed: {:#?}", still.items);

    relay.restore();
    let done = until(&restarted, &told, &id, ended).await;
    assert_eq!(done.status, TaskStatus::Succeeded, "{:#?}", done.items);
    assert_eq!(answers(&done).len(), 1, "{:#?}", done.items);
}
