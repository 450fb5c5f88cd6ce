//! Asking the service to wake a computer, and what its answer means for the person.

use porthole_client::machines::MachineStatus;
use porthole_client::Client;

use crate::error::{AppError, AppResult};

/// Asks the service to wake `machine_id`; `true` when it is starting (by this call or an
/// earlier one), `false` when it is already awake. The words come from `startingUp`, not
/// `waking`: a second call while it starts is still "waking". A computer the service will not
/// wake is said so, never promised.
pub async fn ask_to_wake(client: &Client, machine_id: &str) -> AppResult<bool> {
    let outcome = client.machines().wake(machine_id).await?;
    // A blank answer (the makers' client takes one) says nothing but that the service took
    // the wake: the computer is treated as starting, and the watch that follows reads the
    // list to see when it is up.
    if outcome.starting_up || outcome.is_blank() {
        Ok(true)
    } else if outcome.status != Some(MachineStatus::Active) && !outcome.can_wake {
        Err(AppError::CannotWake)
    } else {
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use porthole_client::{ClientConfig, Credential};
    use porthole_sim::{Config, Sim};

    #[tokio::test]
    async fn a_sleeping_computer_wakes_and_one_that_cannot_is_said_so() {
        let sim = Sim::start(Config {
            time_scale: 0.01,
            ..Config::default()
        })
        .await
        .unwrap();
        let key = sim.account("ada").api_key.clone().unwrap();
        let client = Client::with_config(
            &sim.base_url,
            Credential::api_key(&key).unwrap(),
            ClientConfig::time_scaled(0.01),
        )
        .unwrap();
        let machines = client.machines().list().await.unwrap().machines;
        let named = |name: &str| {
            machines
                .iter()
                .find(|m| m.name.as_deref() == Some(name))
                .unwrap()
                .machine_id
                .clone()
        };

        let research = named("Research box");
        assert!(ask_to_wake(&client, &research).await.unwrap(), "waking");
        // Asked again while it starts: the service says `waking: false`, yet it is waking.
        assert!(
            ask_to_wake(&client, &research).await.unwrap(),
            "still waking"
        );

        let archive = named("Studio archive");
        assert!(matches!(
            ask_to_wake(&client, &archive).await,
            Err(AppError::CannotWake)
        ));

        let awake = named("Design laptop");
        assert!(
            !ask_to_wake(&client, &awake).await.unwrap(),
            "already awake"
        );
    }

    /// The makers' client takes a blank 2xx to wake as the service taking it
    /// (`VoiceChannelClient.kt`): the computer is starting, and it does come up.
    #[tokio::test]
    async fn a_wake_taken_with_a_blank_body_is_a_computer_starting() {
        let sim = Sim::start(Config {
            time_scale: 0.01,
            shapes: porthole_sim::Shapes::Makers,
            ..Config::default()
        })
        .await
        .unwrap();
        let key = sim.account("ada").api_key.clone().unwrap();
        let client = Client::with_config(
            &sim.base_url,
            Credential::api_key(&key).unwrap(),
            ClientConfig::time_scaled(0.01),
        )
        .unwrap();
        let research = client
            .machines()
            .list()
            .await
            .unwrap()
            .machines
            .into_iter()
            .find(|m| m.name.as_deref() == Some("Research box"))
            .unwrap()
            .machine_id;
        assert!(
            ask_to_wake(&client, &research)
                .await
                .expect("a blank 2xx is taken"),
            "a blank answer is a computer starting"
        );
        let mut changes = sim.state().changes();
        loop {
            let list = client.machines().list().await.unwrap().machines;
            let row = list.iter().find(|m| m.machine_id == research).unwrap();
            if row.status == Some(MachineStatus::Active) {
                break;
            }
            changes.changed().await.unwrap();
        }
    }
}
