//! The model catalogue: `GET /v1/agents/models`, plan allowances and per-token prices used
//! to bill tasks. `auto` is always allowed and resolves to a cheap model on the free plan.

use crate::accounts::Plan;
use crate::auth::Caller;
use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::State;
use axum::Json;
use serde_json::{json, Value};

/// One model of the catalogue.
#[derive(Debug, Clone, Copy)]
pub struct Model {
    pub id: &'static str,
    pub name: &'static str,
    pub provider: &'static str,
    pub tier: &'static str,
    pub cost_tier: &'static str,
    pub free_plan: bool,
}

impl Model {
    pub fn allowed_on(&self, plan: Plan) -> bool {
        self.free_plan || !plan.is_free()
    }

    /// US dollars per million (input, output) tokens.
    pub fn price_per_mtok(&self) -> (f64, f64) {
        match self.cost_tier {
            "free" => (0.0, 0.0),
            "$" => (0.4, 1.6),
            "$$" => (3.0, 15.0),
            _ => (15.0, 75.0),
        }
    }
}

/// The default model id when a session has none.
pub const DEFAULT_MODEL: &str = "auto";

const fn m(
    id: &'static str,
    name: &'static str,
    provider: &'static str,
    tier: &'static str,
    cost_tier: &'static str,
    free_plan: bool,
) -> Model {
    Model {
        id,
        name,
        provider,
        tier,
        cost_tier,
        free_plan,
    }
}

pub const MODELS: &[Model] = &[
    m("auto", "Automatic", "anthropic", "balanced", "$", true),
    m(
        "anthropic/claude-opus-4",
        "Claude Opus 4",
        "anthropic",
        "reasoning",
        "$$$",
        false,
    ),
    m(
        "anthropic/claude-sonnet-4",
        "Claude Sonnet 4",
        "anthropic",
        "balanced",
        "$$",
        false,
    ),
    m("openai/gpt-5", "GPT-5", "openai", "reasoning", "$$$", false),
    m(
        "openai/gpt-5-mini",
        "GPT-5 mini",
        "openai",
        "fast",
        "$",
        true,
    ),
    m(
        "google/gemini-2.5-pro",
        "Gemini 2.5 Pro",
        "google",
        "reasoning",
        "$$",
        false,
    ),
    m(
        "google/gemini-2.5-flash",
        "Gemini 2.5 Flash",
        "google",
        "fast",
        "free",
        true,
    ),
    m("xai/grok-4", "Grok 4", "xai", "reasoning", "$$$", false),
    m(
        "deepseek/deepseek-v3",
        "DeepSeek V3",
        "deepseek",
        "balanced",
        "$",
        true,
    ),
    m(
        "mistral/mistral-medium-3",
        "Mistral Medium 3",
        "mistral",
        "balanced",
        "$",
        true,
    ),
];

pub fn find(id: &str) -> Option<&'static Model> {
    MODELS.iter().find(|m| m.id == id)
}

/// The model `auto` stands for on a plan.
pub fn resolve(id: &str, plan: Plan) -> &'static Model {
    let id = if id == "auto" {
        if plan.is_free() {
            "openai/gpt-5-mini"
        } else {
            "anthropic/claude-sonnet-4"
        }
    } else {
        id
    };
    find(id).unwrap_or(&MODELS[0])
}

/// Ids the plan may use, for `403 model_not_allowed_for_plan`.
pub fn allowed_ids(plan: Plan) -> Vec<&'static str> {
    MODELS
        .iter()
        .filter(|m| m.allowed_on(plan))
        .map(|m| m.id)
        .collect()
}

/// `GET /v1/agents/models`.
pub async fn list(State(state): State<AppState>, caller: Caller) -> Result<Json<Value>, ApiError> {
    let plan = state
        .account(&caller.user_id)
        .map(|a| a.plan)
        .ok_or_else(ApiError::unauthorized)?;
    let models: Vec<Value> = MODELS
        .iter()
        .map(|m| {
            json!({
                "id": m.id, "name": m.name, "provider": m.provider, "tier": m.tier,
                "costTier": m.cost_tier, "allowed": m.allowed_on(plan),
            })
        })
        .collect();
    Ok(Json(json!({ "models": models, "default": DEFAULT_MODEL })))
}
