//! Shared support: a simulator on port 0 with a fast clock, and clients of it.

#![allow(dead_code)]

use porthole_client::{Client, ClientConfig, Credential};
use porthole_sim::{Config, FaultSpec, RunningSim, Sim, TurnIdIn};

/// Documented delays run 100 times faster.
pub const TIME_SCALE: f64 = 0.01;

pub async fn sim() -> RunningSim {
    Sim::start(Config {
        time_scale: TIME_SCALE,
        ..Config::default()
    })
    .await
    .expect("the simulator starts")
}

/// A simulator that puts a message's `turnId` only in `places` (the `--turn-id-in` syntax).
pub async fn sim_with_turn_id_in(places: &str) -> RunningSim {
    Sim::start(Config {
        time_scale: TIME_SCALE,
        turn_id_in: TurnIdIn::parse(places).expect("valid places"),
        ..Config::default()
    })
    .await
    .expect("the simulator starts")
}

/// A simulator injecting `faults` (the `--faults` syntax), reproducibly.
pub async fn sim_with_faults(faults: &str, seed: u64) -> RunningSim {
    Sim::start(Config {
        time_scale: TIME_SCALE,
        faults: FaultSpec::parse(faults).expect("a valid fault spec"),
        seed,
        ..Config::default()
    })
    .await
    .expect("the simulator starts")
}

pub fn config() -> ClientConfig {
    ClientConfig::time_scaled(TIME_SCALE)
}

/// A client with the account's API key.
pub fn client(sim: &RunningSim, account: &str) -> Client {
    let key = sim
        .account(account)
        .api_key
        .clone()
        .expect("the account has a key");
    Client::with_config(
        &sim.base_url,
        Credential::api_key(&key).expect("a well-formed key"),
        config(),
    )
    .expect("a valid base URL")
}

/// A client with the account's identity-provider token.
pub fn idp_client(sim: &RunningSim, account: &str) -> Client {
    let token = sim.account(account).id_token.clone();
    Client::with_config(
        &sim.base_url,
        Credential::id_token(&token).expect("a well-formed token"),
        config(),
    )
    .expect("a valid base URL")
}

/// The id of the account's computer with this name.
pub async fn machine(client: &Client, name: &str) -> String {
    client
        .machines()
        .list()
        .await
        .expect("machines list")
        .machines
        .into_iter()
        .find(|m| m.name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("no computer named {name}"))
        .machine_id
}

/// Reads `follower` to its end, which must be an error: the updates before it, and the error.
pub async fn until_the_error(
    follower: &mut porthole_client::TaskFollower,
) -> (Vec<porthole_client::TaskUpdate>, porthole_client::Error) {
    use futures_util::StreamExt;
    let mut updates = Vec::new();
    loop {
        match follower
            .next()
            .await
            .expect("the follow ends with an error")
        {
            Ok(update) => updates.push(update),
            Err(err) => return (updates, err),
        }
    }
}

/// A simulator answering in the shapes the makers' own client shows (`--shapes makers`).
pub async fn makers_sim() -> RunningSim {
    Sim::start(Config {
        time_scale: TIME_SCALE,
        shapes: porthole_sim::Shapes::Makers,
        ..Config::default()
    })
    .await
    .expect("the simulator starts")
}
