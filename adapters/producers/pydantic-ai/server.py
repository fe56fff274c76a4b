#!/usr/bin/env python3
"""A pydantic-ai agent served by its AG-UI adapter, with a scripted FunctionModel.

Usage: server.py PORT   (listens on 127.0.0.1:PORT; POST / takes a RunAgentInput)

The model is pydantic-ai's own ``FunctionModel``: its stream function answers
from the conversation (common/script.py chooses the scenario from the user
message). The agent has a backend tool (``weather_lookup``; the client's
``get_weather`` is called instead when the request offers it), a tool that
changes the shared state (``add_todo``, answering with a STATE_SNAPSHOT),
tools that need approval (``make_payment``, ``delete_drafts``,
``requires_approval``: the run ends with an interrupt, resumed with
``resume``), and the failure path (the model raises). pydantic-ai has no subagent events, so "research" and "book" run
as plain text and tool answers.
"""

import json
import os
import sys
from importlib.metadata import version

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import uvicorn  # noqa: E402
from ag_ui.core import EventType, StateSnapshotEvent  # noqa: E402
from typing import Any  # noqa: E402

from pydantic import BaseModel, ConfigDict  # noqa: E402
from pydantic_ai import Agent, DeferredToolRequests, RunContext  # noqa: E402
from pydantic_ai.messages import ModelRequest, ToolReturnPart, UserPromptPart  # noqa: E402
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, FunctionModel  # noqa: E402
from pydantic_ai.ui import StateDeps  # noqa: E402
from pydantic_ai.ui.ag_ui import AGUIAdapter  # noqa: E402
from starlette.applications import Starlette  # noqa: E402
from starlette.requests import Request  # noqa: E402
from starlette.responses import JSONResponse, Response  # noqa: E402
from starlette.routing import Route  # noqa: E402

from common.script import ScriptedFailure, scenario_of, scripted_call, words  # noqa: E402


class Todos(BaseModel):
    """The shared state: a todo list. Lenient (any items, extra keys kept),
    because the adapter validates the request's state against this model
    and answers HTTP 500 when it does not fit (see the report's notes)."""

    model_config = ConfigDict(extra="allow")
    todos: list[Any] = []


def _last_user_text(messages) -> str:
    for message in reversed(messages):
        if isinstance(message, ModelRequest):
            for part in message.parts:
                if isinstance(part, UserPromptPart) and isinstance(part.content, str):
                    return part.content
    return ""


def _tool_returned(messages):
    """The tool results of the latest request, if it answered tool calls."""
    if messages and isinstance(messages[-1], ModelRequest):
        return [p for p in messages[-1].parts if isinstance(p, ToolReturnPart)]
    return []


async def scripted(messages, info: AgentInfo):
    """The FunctionModel stream: text deltas, or one tool call."""
    scenario = scenario_of(_last_user_text(messages))
    if scenario == "failure":
        raise ScriptedFailure("scripted model failure (the failure scenario)")
    returned = _tool_returned(messages)
    if returned:
        content = returned[0].content
        for delta in words(f"All done. {content[:80] if isinstance(content, str) else ''}".strip()):
            yield delta
        return
    offered = {t.name for t in info.function_tools}
    planned = scripted_call(scenario, offered)
    if planned is not None:
        name, args = planned
        yield {0: DeltaToolCall(name=name, json_args=json.dumps(args), tool_call_id=f"call_{name}_1")}
        return
    for delta in words("Hello from the scripted pydantic-ai agent."):
        yield delta


def _not_streamed(messages, info):
    raise ScriptedFailure("the scripted model only streams")


agent = Agent(FunctionModel(_not_streamed, stream_function=scripted),
              deps_type=StateDeps[Todos], output_type=[str, DeferredToolRequests],
              instructions="You are the scripted conformance agent.")


@agent.tool_plain
def weather_lookup(city: str) -> str:
    """The weather in a city (scripted)."""
    return f"Sunny, 21 C in {city}."


@agent.tool
def add_todo(ctx: RunContext[StateDeps[Todos]], item: str) -> StateSnapshotEvent:
    """Add an item to the shared todo list."""
    ctx.deps.state.todos.append(item)
    return StateSnapshotEvent(type=EventType.STATE_SNAPSHOT, snapshot=ctx.deps.state.model_dump())


@agent.tool_plain(requires_approval=True)
def make_payment(amount: float, currency: str) -> str:
    """Pay an amount (needs the user's approval)."""
    return f"Paid {amount} {currency}."


@agent.tool_plain(requires_approval=True)
def delete_drafts() -> str:
    """Delete the saved drafts (needs the user's confirmation)."""
    return "Deleted 3 drafts."


async def run(request: Request) -> Response:
    return await AGUIAdapter.dispatch_request(request, agent=agent, deps=StateDeps(Todos()))


async def versions(request: Request) -> Response:
    return JSONResponse({p: version(p) for p in ("pydantic-ai-slim", "ag-ui-protocol", "pydantic")})


app = Starlette(routes=[Route("/", run, methods=["POST"]), Route("/versions", versions)])

if __name__ == "__main__":
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 8702
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")
