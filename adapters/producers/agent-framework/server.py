#!/usr/bin/env python3
"""A Microsoft Agent Framework agent served by agent-framework-ag-ui, with a scripted chat client.

Usage: server.py PORT   (listens on 127.0.0.1:PORT; POST / takes a RunAgentInput)

The model is a chat client of our own (agent_framework's ``BaseChatClient``
with its ``FunctionInvocationLayer``, so the agent's tools run as with any
provider's client) whose stream answers from the conversation
(common/script.py chooses the scenario from the user message). The agent has
a backend tool (``weather_lookup``; the client's ``get_weather`` is called
instead when the request offers it), a tool that changes the shared state
(``add_todo``, through agent-framework-ag-ui's ``state_update``), tools that
need approval (``make_payment``, ``delete_drafts``: ``approval_mode=
"always_require"``, which the adapter turns into an interrupt outcome,
resumed with ``resume``), and the failure path (the client raises).
The endpoint declares ``single_user=True`` (the adapter asks for an explicit
authorization mode; one principal is what a local test server has).
agent-framework-ag-ui has no subagent events (it is built on ag-ui-protocol
0.1, which has none), so "research" and "book" run as plain tool answers.
"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from agent_framework import (  # noqa: E402
    Agent, BaseChatClient, ChatResponse, ChatResponseUpdate, Content, FunctionInvocationLayer, Message,
    ResponseStream, tool)
from agent_framework_ag_ui import add_agent_framework_fastapi_endpoint, state_update  # noqa: E402
from fastapi import FastAPI  # noqa: E402

from common.script import ScriptedFailure, call_id, scenario_of, scripted_call, words  # noqa: E402
from common.serve import add_versions, main  # noqa: E402


@tool
def weather_lookup(city: str) -> str:
    """The weather in a city (scripted)."""
    return f"Sunny, 21 C in {city}."


@tool
def add_todo(item: str) -> Content:
    """Add an item to the shared todo list (its result updates the shared state)."""
    return state_update(text=f"Added {item}.", state={"todos": [item]})


@tool(approval_mode="always_require")
def make_payment(amount: float, currency: str) -> str:
    """Pay an amount (needs the user's approval)."""
    return f"Paid {amount} {currency}."


@tool(approval_mode="always_require")
def delete_drafts() -> str:
    """Delete the saved drafts (needs the user's confirmation)."""
    return "Deleted 3 drafts."


def _role(message) -> str:
    role = getattr(message, "role", "")
    return str(getattr(role, "value", role))


def _user_text(messages) -> str:
    for message in reversed(messages):
        if _role(message) == "user" and message.text:
            return message.text
    return ""


def _tool_result(messages):
    """The result of the latest tool call, when the conversation ends with one."""
    last = messages[-1] if messages else None
    for content in getattr(last, "contents", None) or []:
        if content.type == "function_result":
            return content.result
    return None


def _offered(options) -> set:
    names = set()
    for t in options.get("tools") or []:
        name = getattr(t, "name", None) or (t.get("name") if isinstance(t, dict) else None)
        if name:
            names.add(name)
    return names


class ScriptedChatClient(FunctionInvocationLayer, BaseChatClient):
    """A chat client whose every answer is scripted from the conversation."""

    OTEL_PROVIDER_NAME = "scripted"

    def _updates(self, messages, options):
        scenario = scenario_of(_user_text(messages))
        if scenario == "failure":
            raise ScriptedFailure("scripted model failure (the failure scenario)")
        result = _tool_result(messages)
        if result is not None:
            return [ChatResponseUpdate(role="assistant", contents=[Content.from_text(text=d)])
                    for d in words(f"All done. {str(result)[:80]}".strip())]
        planned = scripted_call(scenario, _offered(options))
        if planned is not None:
            name, args = planned
            call = Content.from_function_call(call_id=call_id(name, args), name=name, arguments=json.dumps(args))
            return [ChatResponseUpdate(role="assistant", contents=[call], finish_reason="tool_calls")]
        return [ChatResponseUpdate(role="assistant", contents=[Content.from_text(text=d)])
                for d in words("Hello from the scripted Agent Framework agent.")]

    def _inner_get_response(self, *, messages, stream, options, **kwargs):
        if stream:
            async def _stream():
                for update in self._updates(messages, options):
                    yield update

            return ResponseStream(_stream(), finalizer=ChatResponse.from_updates)

        async def _response():
            return ChatResponse.from_updates(self._updates(messages, options))

        return _response()


def build_app() -> FastAPI:
    agent = Agent(client=ScriptedChatClient(), name="scripted", instructions="You are the scripted conformance agent.",
                  tools=[weather_lookup, add_todo, make_payment, delete_drafts])
    app = FastAPI(title="agui-conform producer: agent-framework-ag-ui")
    add_agent_framework_fastapi_endpoint(app, agent, "/", single_user=True)

    add_versions(app, ("agent-framework-ag-ui", "agent-framework-core", "ag-ui-protocol"))

    return app


if __name__ == "__main__":
    main(build_app, 8705)
