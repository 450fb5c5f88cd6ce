//! Waiting for the app to show something, with a sentence when it never does.
//!
//! Tasks stream in over seconds, so every check polls until a deadline instead of sleeping a
//! fixed time; the deadline only bounds a failure, it is not a speed assertion.

use std::time::{Duration, Instant};

use thirtyfour::prelude::*;

use crate::Result;

/// `[data-testid="…"]`: the app's stable handles for tests.
pub fn by_testid(id: &str) -> By {
    By::Css(format!("[data-testid=\"{id}\"]"))
}

/// Whether a person can see the element. WebKitWebDriver's own "is displayed" answers false
/// for plainly visible elements of this app (seen under Xvfb with WebKitGTK 2.50), so we ask
/// the page itself.
pub async fn visible(driver: &WebDriver, el: &WebElement) -> bool {
    let Ok(arg) = el.to_json() else { return false };
    driver
        .execute("return arguments[0].checkVisibility();", vec![arg])
        .await
        .ok()
        .and_then(|v| v.json().as_bool())
        .unwrap_or(false)
}

/// The text a person reads in the element (`innerText`); WebKitWebDriver's element text is
/// empty wherever its "is displayed" is wrong (see [`visible`]).
pub async fn text_of(el: &WebElement) -> String {
    el.prop("innerText")
        .await
        .ok()
        .flatten()
        .unwrap_or_default()
}

/// Polls the window until a condition holds.
pub struct Eventually<'a> {
    driver: &'a WebDriver,
    limit: Duration,
}

impl<'a> Eventually<'a> {
    pub fn new(driver: &'a WebDriver) -> Self {
        Self {
            driver,
            limit: Duration::from_secs(60),
        }
    }

    pub fn within(mut self, limit: Duration) -> Self {
        self.limit = limit;
        self
    }

    /// The first displayed element with this test id.
    pub async fn element(&self, testid: &str) -> Result<WebElement> {
        let start = Instant::now();
        loop {
            if let Ok(found) = self.driver.find_all(by_testid(testid)).await {
                for el in found {
                    if visible(self.driver, &el).await {
                        return Ok(el);
                    }
                }
            }
            if start.elapsed() > self.limit {
                return Err(format!("\"{testid}\" never appeared").into());
            }
            tokio::time::sleep(Duration::from_millis(150)).await;
        }
    }

    /// Every element with this test id once there are at least `n` of them.
    pub async fn at_least(&self, testid: &str, n: usize) -> Result<Vec<WebElement>> {
        let start = Instant::now();
        loop {
            let found = self
                .driver
                .find_all(by_testid(testid))
                .await
                .unwrap_or_default();
            if found.len() >= n {
                return Ok(found);
            }
            if start.elapsed() > self.limit {
                return Err(
                    format!("expected at least {n} \"{testid}\", saw {}", found.len()).into(),
                );
            }
            tokio::time::sleep(Duration::from_millis(150)).await;
        }
    }

    /// Waits until the element with this test id shows text for which `pred` holds.
    pub async fn text(&self, testid: &str, pred: impl Fn(&str) -> bool) -> Result<String> {
        let start = Instant::now();
        let mut last = String::new();
        loop {
            if let Ok(el) = self.driver.find(by_testid(testid)).await {
                last = text_of(&el).await;
                if pred(&last) {
                    return Ok(last);
                }
            }
            if start.elapsed() > self.limit {
                return Err(
                    format!("\"{testid}\" never showed the expected text; last: {last:?}").into(),
                );
            }
            tokio::time::sleep(Duration::from_millis(150)).await;
        }
    }

    /// Waits until no displayed element has this test id.
    pub async fn gone(&self, testid: &str) -> Result<()> {
        let start = Instant::now();
        loop {
            let mut shown = false;
            for el in self
                .driver
                .find_all(by_testid(testid))
                .await
                .unwrap_or_default()
            {
                shown |= visible(self.driver, &el).await;
            }
            if !shown {
                return Ok(());
            }
            if start.elapsed() > self.limit {
                return Err(format!("\"{testid}\" did not go away").into());
            }
            tokio::time::sleep(Duration::from_millis(150)).await;
        }
    }
}
