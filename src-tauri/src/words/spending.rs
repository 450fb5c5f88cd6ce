//! Words about a task's spending cap, said in the thread when a task reaches it.

/// Dollars as the window shows them (`format.ts`'s `dollars`): two decimals, and never a
/// cost that rounds to nothing.
pub fn dollars(usd: f64) -> String {
    if usd > 0.0 && usd < 0.01 {
        "less than $0.01".into()
    } else {
        format!("${usd:.2}")
    }
}

/// The task reached its cap and Porthole stopped it.
pub fn stopped_at_cap(cap: f64, cost: f64) -> String {
    format!(
        "Stopped at your {} cap. This task cost {}.",
        dollars(cap),
        dollars(cost)
    )
}

/// The task reached its cap but the service did not take the stop.
pub fn not_stopped_at_cap(cap: f64) -> String {
    format!(
        "This task reached your {} cap, but Porthole could not stop it. Press Stop to stop it.",
        dollars(cap)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stop_says_the_cap_and_the_cost_in_dollars() {
        assert_eq!(
            stopped_at_cap(0.5, 0.5234),
            "Stopped at your $0.50 cap. This task cost $0.52."
        );
        assert_eq!(dollars(0.004), "less than $0.01");
        assert_eq!(dollars(0.0), "$0.00");
        assert_eq!(dollars(12.0), "$12.00");
    }
}
