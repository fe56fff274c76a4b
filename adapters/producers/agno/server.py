#!/usr/bin/env python3
"""An agno Agent and an agno Team served by agno's AG-UI interface, with a scripted model.

Usage: server.py PORT   (listens on 127.0.0.1:PORT; POST / takes a RunAgentInput
for the Agent, POST /team for the Team)

agno's ``AGUI`` interface attaches ``POST {prefix}/agui``; the same endpoint
functions are also routed at ``/`` (the Agent) and ``/team`` (the Team), the
paths the producers report plays. The model is a ``Model`` of our own whose
answers are scripted from the conversation (common/script.py chooses the
scenario from the user message). The Agent has a backend tool
(``weather_lookup``; the client's ``get_weather`` is called instead when the
request offers it: agno runs a client tool by pausing the run), a tool that
changes the session state (``add_todo``), tools that need confirmation
(``make_payment``, ``delete_drafts``: ``requires_confirmation=True``, which
pauses the run; the client answers the paused call with a tool message
``{"accepted": true}``), and the failure path (the model raises). The Team
has a leader that delegates to two member Agents (``researcher``,
``writer``) with agno's ``delegate_task_to_member`` tool. Both keep their
sessions in agno's ``InMemoryDb`` (a paused run is resumed from it).
"""

import json
import os
import sys
from dataclasses import dataclass
from typing import Any, AsyncIterator, Iterator, List

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from agno.agent import Agent  # noqa: E402
from agno.db.in_memory import InMemoryDb  # noqa: E402
from agno.models.base import Model  # noqa: E402
from agno.models.response import ModelResponse  # noqa: E402
from agno.os.interfaces.agui import AGUI  # noqa: E402
from agno.run.base import RunContext  # noqa: E402
from agno.team import Team  # noqa: E402
from agno.tools import tool  # noqa: E402
from fastapi import FastAPI  # noqa: E402

from common.script import ScriptedFailure, call_id, scenario_of, scripted_call, words  # noqa: E402
from common.serve import add_versions, main  # noqa: E402


@tool
def weather_lookup(city: str) -> str:
    """The weather in a city (scripted)."""
    return f"Sunny, 21 C in {city}."


@tool
def add_todo(run_context: RunContext, item: str) -> str:
    """Add an item to the shared todo list (the session state)."""
    state = run_context.session_state if run_context.session_state is not None else {}
    todos = state.get("todos")
    state["todos"] = (todos if isinstance(todos, list) else []) + [item]
    run_context.session_state = state
    return f"Added {item}."


@tool(requires_confirmation=True)
def make_payment(amount: float, currency: str) -> str:
    """Pay an amount (needs the user's confirmation)."""
    return f"Paid {amount} {currency}."


@tool(requires_confirmation=True)
def delete_drafts() -> str:
    """Delete the saved drafts (needs the user's confirmation)."""
    return "Deleted 3 drafts."


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(p.get("text", "") for p in content if isinstance(p, dict))
    return "" if content is None else str(content)


def _offered(tools) -> set:
    names = set()
    for t in tools or []:
        fn = t.get("function", t) if isinstance(t, dict) else {}
        if isinstance(fn, dict) and fn.get("name"):
            names.add(fn["name"])
    return names


def _call(name: str, args: dict) -> dict:
    return {"index": 0, "id": call_id(name, args), "type": "function",
            "function": {"name": name, "arguments": json.dumps(args)}}


@dataclass
class ScriptedModel(Model):
    """A model whose every answer is scripted from the conversation.

    ``part`` is who answers: ``agent`` (the Agent), ``leader`` (the Team's
    leader), or a member's name."""

    id: str = "scripted"
    name: str = "ScriptedModel"
    provider: str = "scripted"
    part: str = "agent"

    def _reply(self, messages, tools) -> List[ModelResponse]:
        last = messages[-1] if messages else None
        if last is not None and last.role == "tool":
            result = _text(last.content)[:80]
            return [ModelResponse(role="assistant", content=d) for d in words(f"All done. {result}".strip())]
        user = next((_text(m.content) for m in reversed(messages) if m.role == "user"), "")
        scenario = scenario_of(user)
        if scenario == "failure":
            raise ScriptedFailure("scripted model failure (the failure scenario)")
        if self.part == "leader":
            if scenario == "subagents":
                calls = [_call("delegate_task_to_member", {"member_id": m, "task": f"Research {c}."})
                         for m, c in (("researcher", "Lisbon"), ("writer", "Porto"))]
                for i, c in enumerate(calls):
                    c["index"] = i
                return [ModelResponse(role="assistant", tool_calls=calls)]
            return [ModelResponse(role="assistant", content=d) for d in words("Hello from the scripted agno team.")]
        if self.part != "agent":
            return [ModelResponse(role="assistant", content=d)
                    for d in words(f"The {self.part} found: {user.strip()[:60]}")]
        planned = scripted_call(scenario, _offered(tools))
        if planned is not None:
            name, args = planned
            # A sentence before the call, as chat models often stream one.
            return ([ModelResponse(role="assistant", content=d) for d in words("One moment.")]
                    + [ModelResponse(role="assistant", tool_calls=[_call(name, args)])])
        return [ModelResponse(role="assistant", content=d) for d in words("Hello from the scripted agno agent.")]

    def invoke(self, messages, assistant_message, response_format=None, tools=None, **kwargs) -> ModelResponse:
        parts = self._reply(messages, tools)
        out = ModelResponse(role="assistant", content="".join(p.content or "" for p in parts) or None)
        out.tool_calls = [c for p in parts for c in p.tool_calls]
        return out

    async def ainvoke(self, *args, **kwargs) -> ModelResponse:
        return self.invoke(*args, **kwargs)

    def invoke_stream(self, messages, assistant_message, response_format=None, tools=None,
                      **kwargs) -> Iterator[ModelResponse]:
        yield from self._reply(messages, tools)

    async def ainvoke_stream(self, messages, assistant_message, response_format=None, tools=None,
                             **kwargs) -> AsyncIterator[ModelResponse]:
        for part in self._reply(messages, tools):
            yield part

    def _parse_provider_response(self, response: Any, **kwargs) -> ModelResponse:
        return response

    def _parse_provider_response_delta(self, response: Any) -> ModelResponse:
        return response


def build_app() -> FastAPI:
    agent = Agent(id="scripted-agent", name="scripted", model=ScriptedModel(), db=InMemoryDb(),
                  instructions="You are the scripted conformance agent.",
                  tools=[weather_lookup, add_todo, make_payment, delete_drafts])
    members = [Agent(id=m, name=m, model=ScriptedModel(part=m), role=f"the {m}") for m in ("researcher", "writer")]
    team = Team(id="scripted-team", name="scripted team", model=ScriptedModel(part="leader"), members=members,
                db=InMemoryDb(), instructions="Delegate research to the members.")
    app = FastAPI(title="agui-conform producer: agno AG-UI interface")
    for interface, alias in ((AGUI(agent=agent), "/"), (AGUI(team=team, prefix="/team"), "/team")):
        router = interface.get_router()
        app.include_router(router)
        # The endpoint agno attaches at PREFIX/agui, also at the path the report plays.
        run = next(r for r in router.routes if getattr(r, "name", "") == "run_agent")
        app.add_api_route(alias, run.endpoint, methods=["POST"])

    add_versions(app, ("agno", "ag-ui-protocol"))
    return app


if __name__ == "__main__":
    main(build_app, 8709)
