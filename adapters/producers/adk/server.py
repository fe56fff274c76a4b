#!/usr/bin/env python3
"""A google-adk agent team served by ag-ui-adk, with a scripted custom BaseLlm.

Usage: server.py PORT   (listens on 127.0.0.1:PORT; POST / takes a RunAgentInput)

Paths: ``/`` ends a run that waits for a confirmation with the structured
interrupt outcome (``emit_interrupt_outcome=True``); ``/legacy`` is the same
agent with the default (the confirmation is only a client tool call,
``adk_request_confirmation``, left without a result).

The root LlmAgent has a backend tool (``weather_lookup``; the client's
``get_weather``, offered through ag-ui-adk's ``AGUIToolset``, is called
instead when the request has it), a tool that writes the session state
(``add_todo``: ag-ui-adk streams the change as state events), tools that
need the user's confirmation (``make_payment``, ``delete_drafts``: ADK's
``require_confirmation``, which ag-ui-adk turns into an interrupt), and a
sub-agent (``researcher``) it hands over to with ADK's ``transfer_to_agent``;
the model raises for the failure path. ag-ui-adk has
no SUBAGENT_* events: the sub-agent's answer arrives as the run's own.
The scenarios are chosen by the user message (common/script.py).
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from ag_ui_adk import ADKAgent, AGUIToolset, add_adk_fastapi_endpoint  # noqa: E402
from fastapi import FastAPI  # noqa: E402
from google.adk.agents import LlmAgent  # noqa: E402
from google.adk.models.base_llm import BaseLlm  # noqa: E402
from google.adk.models.llm_response import LlmResponse  # noqa: E402
from google.adk.tools.function_tool import FunctionTool  # noqa: E402
from google.adk.tools.tool_context import ToolContext  # noqa: E402
from google.genai import types  # noqa: E402

from common.script import CLIENT_WEATHER_TOOL, ScriptedFailure, call_id, scenario_of  # noqa: E402
from common.serve import add_versions, main  # noqa: E402

RESEARCHER = "SUBAGENT:researcher"


def weather_lookup(city: str) -> str:
    """The weather in a city (scripted)."""
    return f"Sunny, 21 C in {city}."


def add_todo(item: str, tool_context: ToolContext) -> str:
    """Add an item to the todo list kept in the session state."""
    todos = list(tool_context.state.get("todos", []))
    todos.append(item)
    tool_context.state["todos"] = todos
    return f"Added {item}."


def make_payment(amount: float, currency: str) -> str:
    """Pay an amount (needs the user's confirmation)."""
    return f"Paid {amount} {currency}."


def delete_drafts() -> str:
    """Delete the saved drafts (needs the user's confirmation)."""
    return "Deleted 3 drafts."


def _text(reply: str) -> LlmResponse:
    return LlmResponse(content=types.Content(role="model", parts=[types.Part(text=reply)]))


def _call(name: str, args: dict) -> LlmResponse:
    call = types.FunctionCall(name=name, args=args, id=call_id(name, args))
    return LlmResponse(content=types.Content(role="model", parts=[types.Part(function_call=call)]))


class ScriptedLlm(BaseLlm):
    """A BaseLlm whose every answer is scripted from the request."""

    model: str = "scripted"

    @classmethod
    def supported_models(cls):
        return [r"scripted.*"]

    async def generate_content_async(self, llm_request, stream: bool = False):
        contents = llm_request.contents or []
        instruction = str(getattr(llm_request.config, "system_instruction", "") or "")
        user_text = ""
        for content in contents:
            if content.role == "user":
                for part in content.parts or []:
                    if part.text:
                        user_text = part.text
        last = contents[-1] if contents else None
        responses = [p.function_response for p in (last.parts or []) if p.function_response] if last else []
        scenario = scenario_of(user_text)
        if scenario == "failure":
            raise ScriptedFailure("scripted model failure (the failure scenario)")
        if RESEARCHER in instruction:
            yield _text("Research done: Lisbon is sunny today.")
            return
        if responses:
            yield _text(f"All done ({responses[0].name}).")
            return
        offered = set(getattr(llm_request, "tools_dict", {}) or {})
        if scenario == "tool":
            name = CLIENT_WEATHER_TOOL if CLIENT_WEATHER_TOOL in offered else "weather_lookup"
            yield _call(name, {"city": "Lisbon"})
        elif scenario == "interrupt":
            yield _call("make_payment", {"amount": 89, "currency": "EUR"})
        elif scenario == "confirm":
            yield _call("delete_drafts", {})
        elif scenario == "state":
            yield _call("add_todo", {"item": "buy milk"})
        elif scenario == "subagent-interrupt":
            yield _call("make_payment", {"amount": 120, "currency": "EUR"})
        elif scenario == "subagents":
            yield _call("transfer_to_agent", {"agent_name": "researcher"})
        else:
            yield _text("Hello from the scripted ADK agent.")


def build_app() -> FastAPI:
    llm = ScriptedLlm()
    researcher = LlmAgent(name="researcher", model=llm, description="Researches a city.",
                          instruction=f"{RESEARCHER} You research a city.")
    root = LlmAgent(name="assistant", model=llm, instruction="You are the scripted conformance agent.",
                    tools=[weather_lookup, add_todo, FunctionTool(make_payment, require_confirmation=True),
                           FunctionTool(delete_drafts, require_confirmation=True), AGUIToolset()],
                    sub_agents=[researcher])
    app = FastAPI(title="agui-conform producer: ag-ui-adk + google-adk")
    for path, outcome in (("/", True), ("/legacy", False)):
        agent = ADKAgent(adk_agent=root, app_name="conformance", user_id="conformance-user",
                         use_in_memory_services=True, emit_interrupt_outcome=outcome)
        add_adk_fastapi_endpoint(app, agent, path=path)

    add_versions(app, ("ag_ui_adk", "google-adk", "ag-ui-protocol"))

    return app


if __name__ == "__main__":
    main(build_app, 8703)
