"""The scripted conversation every producer server plays, framework-free.

A scenario is chosen by a keyword in the latest user message, so one server
serves every scenario of the report and of the producer suites (whose inputs
carry a user message). No network, no model: each reply is a pure function
of the conversation so far, so a stream is the same on every run.

Keywords (first match wins): "fail" (the model raises: the failure path),
"research" (two subagents at once, where the framework has them), "book" (a
subagent that needs approval: an interrupt inside a subagent), "confirm"
(deleting drafts needs confirmation: an interrupt), "pay" or "approv" (a
payment needs approval: an interrupt), "todo" or "state" (a tool that changes
the agent state), "weather" or "tool" (a tool call: the client's
`get_weather` when the request offers one, which the client then answers
with a tool message, else the backend `weather_lookup`), anything else: a
short text answer.

Tool names: the servers' own tools are `weather_lookup`, `add_todo`,
`make_payment` and `delete_drafts`, so that none clashes with a tool a client
offers (the producer suite offers `get_weather`, `pay`, `web_search`).
"""

import hashlib
import json

SCENARIOS = ("text", "tool", "state", "interrupt", "confirm", "subagents", "subagent-interrupt", "failure")
CLIENT_WEATHER_TOOL = "get_weather"

KEYWORDS = (
    ("fail", "failure"),
    ("research", "subagents"),
    ("book", "subagent-interrupt"),
    ("confirm", "confirm"),
    ("pay", "interrupt"),
    ("approv", "interrupt"),
    ("todo", "state"),
    ("state", "state"),
    ("weather", "tool"),
    ("tool", "tool"),
)

# One user message per scenario, for the report's requests.
MESSAGES = {
    "text": "Say hello in one short sentence.",
    "tool": "What is the weather in Lisbon? Use the weather tool.",
    "state": "Add 'buy milk' to my todo list.",
    "interrupt": "Pay the 89 EUR invoice, but ask me for approval first.",
    "confirm": "Delete all my saved drafts, but ask me to confirm first.",
    "subagents": "Research Lisbon and Porto in parallel.",
    "subagent-interrupt": "Book a flight to Lisbon through the booking agent.",
    "failure": "Please fail now.",
}


class ScriptedFailure(RuntimeError):
    """The scripted model's failure path: raised on purpose."""


def scenario_of(text) -> str:
    """The scenario a user message asks for."""
    low = (text or "").lower() if isinstance(text, str) else ""
    for word, scenario in KEYWORDS:
        if word in low:
            return scenario
    return "text"


def approved(answer) -> bool:
    """Whether a resume answer approves: `{"approved": true}` (the AG-UI
    examples' approval payload) or a LangChain HITL `{"decisions": [{"type":
    "approve"}]}`; a cancelled resume or anything else declines."""
    if not isinstance(answer, dict):
        return answer is True
    if answer.get("approved") is True:
        return True
    decisions = answer.get("decisions")
    return (isinstance(decisions, list) and bool(decisions) and isinstance(decisions[0], dict)
            and decisions[0].get("type") == "approve")


def call_id(name: str, args: dict) -> str:
    """A tool call id that is the same on every run (the report shows ids),
    and differs between calls of one turn (they differ in name or arguments)."""
    digest = hashlib.sha1(f"{name}{json.dumps(args, sort_keys=True)}".encode()).hexdigest()[:8]
    return f"call_{name}_{digest}"


def words(text: str):
    """A reply split into streamed deltas (word by word, spaces kept)."""
    parts = text.split(" ")
    return [p + (" " if i < len(parts) - 1 else "") for i, p in enumerate(parts)]


# The tool call each scenario's first model turn makes: (tool name, arguments).
_CALLS = {
    "tool": (None, {"city": "Lisbon"}),
    "subagents": ("weather_lookup", {"city": "Porto"}),
    "state": ("add_todo", {"item": "buy milk"}),
    "interrupt": ("make_payment", {"amount": 89, "currency": "EUR"}),
    "subagent-interrupt": ("make_payment", {"amount": 120, "currency": "EUR"}),
    "confirm": ("delete_drafts", {}),
}


def scripted_call(scenario: str, offered):
    """The call `scenario`'s model turn makes, as (name, arguments dict), or
    None for a scenario that calls no tool. The weather call is the client's
    `get_weather` when the request offers it (`offered`: tool names), else
    the backend `weather_lookup`."""
    if scenario not in _CALLS:
        return None
    name, args = _CALLS[scenario]
    if name is None:
        name = CLIENT_WEATHER_TOOL if CLIENT_WEATHER_TOOL in offered else "weather_lookup"
    return name, dict(args)

