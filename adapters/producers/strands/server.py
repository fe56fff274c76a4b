#!/usr/bin/env python3
"""A Strands agent served by ag-ui-strands, with a scripted strands Model.

Usage: server.py PORT   (listens on 127.0.0.1:PORT; POST / takes a RunAgentInput)

The model is a strands ``Model`` subclass that streams scripted
ConverseStream-style events (text deltas, or one tool use). Tools: a backend
tool (``weather_lookup``; the client's ``get_weather`` is called instead when
the request offers it), a tool whose result becomes the shared state
(``add_todo``, through ag-ui-strands' ``state_from_result``), tools that
interrupt before they run (``make_payment``, ``delete_drafts``,
``interrupt_on_call``: resumed with ``resume``), and the failure path (the
model raises). ag-ui-strands has no
SUBAGENT_* events; "research" and "book" run as tool answers.
The scenarios are chosen by the user message (common/script.py).
"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from ag_ui_strands import StrandsAgent  # noqa: E402
from ag_ui_strands.config import StrandsAgentConfig, ToolBehavior  # noqa: E402
from ag_ui_strands.endpoint import add_strands_fastapi_endpoint  # noqa: E402
from fastapi import FastAPI  # noqa: E402
from strands import Agent, tool  # noqa: E402
from strands.models.model import Model  # noqa: E402

from common.script import ScriptedFailure, scenario_of, scripted_call, words  # noqa: E402
from common.serve import add_versions, main  # noqa: E402


@tool
def weather_lookup(city: str) -> str:
    """The weather in a city (scripted)."""
    return f"Sunny, 21 C in {city}."


@tool
def add_todo(item: str) -> dict:
    """Add an item to the todo list (the result becomes the shared state)."""
    return {"todos": [item]}


@tool
def make_payment(amount: float, currency: str) -> str:
    """Pay an amount (interrupts for the user's approval first)."""
    return f"Paid {amount} {currency}."


@tool
def delete_drafts() -> str:
    """Delete the saved drafts (interrupts for the user's confirmation first)."""
    return "Deleted 3 drafts."


def _user_text(messages) -> str:
    for message in reversed(messages):
        if message.get("role") == "user":
            for block in message.get("content", []):
                if "text" in block:
                    return block["text"]
    return ""


def _after_tool(messages) -> bool:
    last = messages[-1] if messages else {}
    return any("toolResult" in b for b in last.get("content", []))


class ScriptedModel(Model):
    """A strands Model whose every answer is scripted from the conversation."""

    def __init__(self):
        self.config = {"model_id": "scripted"}

    def update_config(self, **model_config):
        self.config.update(model_config)

    def get_config(self):
        return self.config

    async def structured_output(self, output_model, prompt, system_prompt=None, **kwargs):
        raise ScriptedFailure("the scripted model has no structured output")
        yield  # pragma: no cover  (an async generator, as the interface wants)

    async def stream(self, messages, tool_specs=None, system_prompt=None, **kwargs):
        scenario = scenario_of(_user_text(messages))
        if scenario == "failure":
            raise ScriptedFailure("scripted model failure (the failure scenario)")
        yield {"messageStart": {"role": "assistant"}}
        offered = {spec.get("name") for spec in tool_specs or []}
        planned = scripted_call(scenario, offered)
        if planned is not None and not _after_tool(messages):
            name, args = planned
            yield {"contentBlockStart": {"start": {"toolUse": {"name": name, "toolUseId": f"call_{name}_1"}}}}
            yield {"contentBlockDelta": {"delta": {"toolUse": {"input": json.dumps(args)}}}}
            yield {"contentBlockStop": {}}
            yield {"messageStop": {"stopReason": "tool_use"}}
            return
        reply = "All done." if _after_tool(messages) else "Hello from the scripted Strands agent."
        yield {"contentBlockStart": {"start": {}}}
        for delta in words(reply):
            yield {"contentBlockDelta": {"delta": {"text": delta}}}
        yield {"contentBlockStop": {}}
        yield {"messageStop": {"stopReason": "end_turn"}}


def _todos_state(context):
    """ag-ui-strands' state_from_result hook: the tool's result is the new state."""
    result = getattr(context, "result_data", None)
    return result if isinstance(result, dict) else None


def build_app() -> FastAPI:
    core = Agent(model=ScriptedModel(), tools=[weather_lookup, add_todo, make_payment, delete_drafts],
                 system_prompt="You are the scripted conformance agent.", callback_handler=None)
    config = StrandsAgentConfig(tool_behaviors={
        "add_todo": ToolBehavior(state_from_result=_todos_state),
        "make_payment": ToolBehavior(interrupt_on_call=True),
        "delete_drafts": ToolBehavior(interrupt_on_call=True),
    })
    agent = StrandsAgent(core, name="strands-scripted", config=config)
    app = FastAPI(title="agui-conform producer: ag-ui-strands + strands-agents")
    add_strands_fastapi_endpoint(app, agent, "/")

    add_versions(app, ("ag_ui_strands", "strands-agents", "ag-ui-protocol"))

    return app


if __name__ == "__main__":
    main(build_app, 8704)
