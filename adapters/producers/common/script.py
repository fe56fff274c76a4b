"""The scripted conversation every producer server plays, framework-free.

A scenario is chosen by a keyword in the latest user message, so one server
serves every scenario of the report and of the producer suites (whose inputs
carry a user message). No network, no model: each reply is a pure function
of the conversation so far, so a stream is the same on every run.

Keywords (first match wins): "fail" (the model raises: the failure path),
"research" (two subagents at once, where the framework has them), "book" (a
subagent that needs approval: an interrupt inside a subagent), "pay" or
"approv" (a tool that needs approval: an interrupt), "todo" or "state" (a
tool that changes the agent state), "weather" or "tool" (a backend tool
call), anything else: a short text answer.
"""

SCENARIOS = ("text", "tool", "state", "interrupt", "subagents", "subagent-interrupt", "failure")

KEYWORDS = (
    ("fail", "failure"),
    ("research", "subagents"),
    ("book", "subagent-interrupt"),
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


def words(text: str):
    """A reply split into streamed deltas (word by word, spaces kept)."""
    parts = text.split(" ")
    return [p + (" " if i < len(parts) - 1 else "") for i, p in enumerate(parts)]
