//! The scripted agent: each scenario of `common/script.py` written with
//! the `ag-ui` server's own handles (messages, tool calls, state,
//! subagents, interrupt outcomes), so that every event is the framework's.

use crate::script::{Scenario, approved, scenario_of, words};
use ag_ui::server::{Agent, Error, Result, RunContext};
use ag_ui::{Interrupt, Message, ResumeStatus, RunOutcome, SubagentStartedEvent};
use serde_json::{Value, json};

/// The client's weather tool, called when the request offers it.
const CLIENT_WEATHER_TOOL: &str = "get_weather";

/// Interrupt ids (fixed: a resume names them, and the report shows them).
const PAYMENT: &str = "approve-payment";
const DRAFTS: &str = "confirm-delete-drafts";
const BOOKING: &str = "approve-booking";
/// The booking subagent's id, the same in the run that resumes it.
const BOOKER: &str = "booker-1";

pub struct Scripted;

impl Agent for Scripted {
    type State = Value;

    async fn run(&self, ctx: &mut RunContext<Value>) -> Result<RunOutcome> {
        if ctx.is_resume() {
            return resume(ctx);
        }
        // A client that ran our tool call answers with a tool message.
        if matches!(ctx.messages().last(), Some(Message::Tool(_))) {
            reply(ctx, "The weather in Lisbon is sunny, 22 °C.")?;
            return Ok(RunOutcome::Success);
        }
        match scenario_of(ctx.last_user_text().as_deref()) {
            Scenario::Text => reply(ctx, "Hello! How can I help you today?")?,
            Scenario::Tool => return tool(ctx),
            Scenario::State => state(ctx)?,
            Scenario::Interrupt => {
                return ask(
                    ctx,
                    "make_payment",
                    json!({"amount": 89, "currency": "EUR"}),
                    PAYMENT,
                    "Approve the payment of 89 EUR?",
                );
            }
            Scenario::Confirm => {
                return ask(
                    ctx,
                    "delete_drafts",
                    json!({"all": true}),
                    DRAFTS,
                    "Delete all saved drafts?",
                );
            }
            Scenario::Subagents => subagents(ctx)?,
            Scenario::SubagentInterrupt => return booking(ctx),
            Scenario::Failure => {
                reply(ctx, "Let me try that.")?;
                return Err(Error::agent("the scripted model failed, as asked"));
            }
        }
        Ok(RunOutcome::Success)
    }
}

/// An assistant message, streamed word by word.
fn reply(ctx: &mut RunContext<Value>, text: &str) -> Result<()> {
    let mut message = ctx.assistant_message()?;
    for w in words(text) {
        message.delta(w)?;
    }
    message.end()
}

/// The weather: the client's tool when it offers one (the run ends with
/// the call open for the client to answer), else the server's own.
fn tool(ctx: &mut RunContext<Value>) -> Result<RunOutcome> {
    let args = json!({"city": "Lisbon"}).to_string();
    if ctx.tool(CLIENT_WEATHER_TOOL).is_some() {
        let mut call = ctx.tool_call(CLIENT_WEATHER_TOOL)?;
        call.args(&args)?;
        call.end()?;
        return Ok(RunOutcome::Success);
    }
    let mut call = ctx.tool_call("weather_lookup")?;
    call.args(&args)?;
    call.result(json!({"city": "Lisbon", "sky": "sunny", "celsius": 22}).to_string())?;
    reply(ctx, "The weather in Lisbon is sunny, 22 °C.")?;
    Ok(RunOutcome::Success)
}

/// A tool that changes the agent state.
fn state(ctx: &mut RunContext<Value>) -> Result<()> {
    let mut call = ctx.tool_call("add_todo")?;
    call.args(json!({"item": "buy milk"}).to_string())?;
    call.result("added")?;
    ctx.update_state(|s| {
        if !s.is_object() {
            *s = json!({});
        }
        let todos = &mut s["todos"];
        match todos.as_array_mut() {
            Some(list) => list.push(json!("buy milk")),
            None => *todos = json!(["buy milk"]),
        }
    })?;
    reply(ctx, "Added 'buy milk' to your todo list.")
}

/// A server tool that needs approval: the call, then an interrupt outcome.
fn ask(
    ctx: &mut RunContext<Value>,
    name: &str,
    args: Value,
    id: &str,
    question: &str,
) -> Result<RunOutcome> {
    let mut call = ctx.tool_call(name)?;
    call.args(args.to_string())?;
    let call_id = call.id().clone();
    call.end()?;
    let mut interrupt = Interrupt::new(id, "tool_approval");
    interrupt.message = Some(question.to_owned());
    interrupt.tool_call_id = Some(call_id);
    Ok(RunOutcome::interrupt(vec![interrupt]))
}

/// Two researchers, one after the other: the handles scope one subagent
/// at a time.
fn subagents(ctx: &mut RunContext<Value>) -> Result<()> {
    for city in ["Lisbon", "Porto"] {
        let mut researcher = ctx.subagent("researcher")?;
        let mut call = researcher.tool_call("web_lookup")?;
        call.args(json!({"city": city}).to_string())?;
        call.result(format!("{city}: a port city in Portugal."))?;
        reply(
            &mut researcher,
            &format!("{city} is a port city in Portugal."),
        )?;
        researcher.finish()?;
    }
    reply(ctx, "Both are port cities in Portugal.")
}

/// A subagent that needs approval: it suspends on the interrupt it raises.
fn booking(ctx: &mut RunContext<Value>) -> Result<RunOutcome> {
    let mut booker = ctx.subagent_with(SubagentStartedEvent::new(BOOKER, "booker"))?;
    reply(
        &mut booker,
        "I need your approval to book the flight to Lisbon.",
    )?;
    booker.suspend(vec![BOOKING.to_owned()])?;
    let mut interrupt = Interrupt::new(BOOKING, "approval").with_subagent_run_id(BOOKER);
    interrupt.message = Some("Book the flight to Lisbon?".to_owned());
    Ok(RunOutcome::interrupt(vec![interrupt]))
}

/// A run that answers interrupts this agent raised.
fn resume(ctx: &mut RunContext<Value>) -> Result<RunOutcome> {
    let answer = |ctx: &RunContext<Value>, id: &str| {
        ctx.resume_for(id)
            .map(|e| e.status == ResumeStatus::Resolved && approved(e.payload.as_ref()))
    };
    if let Some(yes) = answer(ctx, BOOKING) {
        let mut booker = ctx.subagent_with(SubagentStartedEvent::new(BOOKER, "booker"))?;
        reply(
            &mut booker,
            if yes {
                "Booked: Lisbon, tomorrow 9:00."
            } else {
                "Booking cancelled."
            },
        )?;
        booker.finish()?;
        reply(
            ctx,
            if yes {
                "Your flight to Lisbon is booked."
            } else {
                "I did not book the flight."
            },
        )?;
    } else if let Some(yes) = answer(ctx, PAYMENT) {
        reply(
            ctx,
            if yes {
                "Paid the 89 EUR invoice."
            } else {
                "Payment cancelled."
            },
        )?;
    } else if let Some(yes) = answer(ctx, DRAFTS) {
        reply(
            ctx,
            if yes {
                "Deleted all saved drafts."
            } else {
                "Kept your drafts."
            },
        )?;
    } else {
        reply(ctx, "There is nothing waiting for an answer.")?;
    }
    Ok(RunOutcome::Success)
}
