#!/usr/bin/env python3
"""A deepagents agent served by ag-ui-langgraph, with a scripted chat model.

Usage: server.py PORT   (listens on 127.0.0.1:PORT)

Paths: ``/`` emits the subagent protocol (``subagent_visibility="attributed"``:
native SUBAGENT_* events and subagentRunId) and ends an interrupted run with
the structured interrupt outcome (``emit_interrupt_outcome=True``); ``/legacy``
is the same agent with both options at their defaults (subagents inline, the
legacy interrupt custom event and no outcome). A MemorySaver checkpointer
keeps each thread, so a later request with ``resume`` continues it. The
approval tools call LangGraph's ``interrupt()`` themselves (not the HITL
middleware), so they take the AG-UI approval payload ``{"approved": true}``
as well as a HITL decision, and a cancelled resume declines.
The scenarios are chosen by the user message (common/script.py).
"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from ag_ui_langgraph import LangGraphAgent, add_langgraph_fastapi_endpoint  # noqa: E402
from deepagents import create_deep_agent  # noqa: E402
from fastapi import FastAPI  # noqa: E402
from langchain_core.language_models.chat_models import BaseChatModel  # noqa: E402
from langchain_core.messages import AIMessage, AIMessageChunk, HumanMessage, SystemMessage, ToolMessage  # noqa: E402
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult  # noqa: E402
from langchain_core.tools import tool  # noqa: E402
from langgraph.checkpoint.memory import MemorySaver  # noqa: E402
from langgraph.types import interrupt  # noqa: E402

from common.script import (  # noqa: E402
    CLIENT_WEATHER_TOOL, ScriptedFailure, approved, call_id, scenario_of, words)
from common.serve import add_versions, main  # noqa: E402

RESEARCHER = "SUBAGENT:researcher"
BOOKER = "SUBAGENT:booker"


@tool
def weather_lookup(city: str) -> str:
    """The weather in a city (scripted)."""
    return f"Sunny, 21 C in {city}."


@tool
def make_payment(amount: float, currency: str) -> str:
    """Pay an amount (interrupts for the user's approval first)."""
    answer = interrupt({"message": f"Approve paying {amount} {currency}?", "reason": "approval"})
    return f"Paid {amount} {currency}." if approved(answer) else "Payment declined by the user."


@tool
def delete_drafts() -> str:
    """Delete the saved drafts (interrupts for the user's confirmation first)."""
    answer = interrupt({"message": "Delete all saved drafts?", "reason": "confirmation"})
    return "Deleted 3 drafts." if approved(answer) else "Nothing deleted: the user declined."


def _call(name, args):
    return {"name": name, "args": args, "id": call_id(name, args), "type": "tool_call"}


class ScriptedChatModel(BaseChatModel):
    """A chat model whose every answer is scripted from the conversation."""

    @property
    def _llm_type(self) -> str:
        return "scripted"

    offered: tuple = ()

    def bind_tools(self, tools, **kwargs):
        """Remembers the tools' names: a client's tool is called when offered."""
        names = tuple(t.get("name") if isinstance(t, dict) else getattr(t, "name", "") for t in tools)
        return self.model_copy(update={"offered": names})

    def _reply(self, messages) -> AIMessage:
        system = " ".join(m.content for m in messages if isinstance(m, SystemMessage) and isinstance(m.content, str))
        humans = [m for m in messages if isinstance(m, HumanMessage)]
        last = messages[-1] if messages else None
        after_tool = isinstance(last, ToolMessage)
        if RESEARCHER in system:
            if after_tool:
                return AIMessage(content=f"Research done: {last.content}")
            topic = humans[-1].content if humans else "the city"
            city = "Porto" if "porto" in str(topic).lower() else "Lisbon"
            return AIMessage(content="", tool_calls=[_call("weather_lookup", {"city": city})])
        if BOOKER in system:
            if after_tool:
                return AIMessage(content=f"Booking finished: {last.content}")
            return AIMessage(content="", tool_calls=[_call("make_payment", {"amount": 120, "currency": "EUR"})])
        scenario = scenario_of(humans[-1].content if humans else "")
        if scenario == "failure":
            raise ScriptedFailure("scripted model failure (the failure scenario)")
        if after_tool:
            return AIMessage(content=f"All done. {str(last.content)[:80]}")
        if scenario == "tool":
            name = CLIENT_WEATHER_TOOL if CLIENT_WEATHER_TOOL in self.offered else "weather_lookup"
            return AIMessage(content="", tool_calls=[_call(name, {"city": "Lisbon"})])
        if scenario == "state":
            # deepagents keeps its files in the graph state: writing one changes the state.
            return AIMessage(content="", tool_calls=[_call("write_file", {"file_path": "/todo.md",
                                                                          "content": "- buy milk\n"})])
        if scenario == "interrupt":
            return AIMessage(content="", tool_calls=[_call("make_payment", {"amount": 89, "currency": "EUR"})])
        if scenario == "confirm":
            return AIMessage(content="", tool_calls=[_call("delete_drafts", {})])
        if scenario == "subagents":
            return AIMessage(content="", tool_calls=[
                _call("task", {"description": "Research Lisbon", "subagent_type": "researcher"}),
                _call("task", {"description": "Research Porto", "subagent_type": "researcher"}),
            ])
        if scenario == "subagent-interrupt":
            return AIMessage(content="", tool_calls=[
                _call("task", {"description": "Book a flight to Lisbon", "subagent_type": "booker"})])
        return AIMessage(content="Hello from the scripted deep agent.")

    def _generate(self, messages, stop=None, run_manager=None, **kwargs) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=self._reply(messages))])

    def _stream(self, messages, stop=None, run_manager=None, **kwargs):
        reply = self._reply(messages)
        if reply.tool_calls:
            chunks = [{"name": c["name"], "args": json.dumps(c["args"]), "id": c["id"], "index": i}
                      for i, c in enumerate(reply.tool_calls)]
            yield ChatGenerationChunk(message=AIMessageChunk(content="", tool_call_chunks=chunks))
            return
        for delta in words(reply.content):
            chunk = ChatGenerationChunk(message=AIMessageChunk(content=delta))
            if run_manager:
                run_manager.on_llm_new_token(delta, chunk=chunk)
            yield chunk


def build_graph():
    model = ScriptedChatModel()
    subagents = [
        {"name": "researcher", "description": "Researches one city.",
         "system_prompt": f"{RESEARCHER} You research a city.", "tools": [weather_lookup], "model": model},
        {"name": "booker", "description": "Books flights; pays after approval.",
         "system_prompt": f"{BOOKER} You book flights.", "tools": [make_payment], "model": model},
    ]
    return create_deep_agent(model=model, tools=[weather_lookup, make_payment, delete_drafts],
                             subagents=subagents, system_prompt="You are the scripted conformance agent.",
                             checkpointer=MemorySaver())


def build_app() -> FastAPI:
    app = FastAPI(title="agui-conform producer: ag-ui-langgraph + deepagents")
    graph = build_graph()
    attributed = LangGraphAgent(name="deepagent", graph=graph, subagent_visibility="attributed",
                                emit_interrupt_outcome=True)
    legacy = LangGraphAgent(name="deepagent", graph=graph)
    add_langgraph_fastapi_endpoint(app, attributed, "/")
    add_langgraph_fastapi_endpoint(app, legacy, "/legacy")

    add_versions(app, ("ag-ui-langgraph", "deepagents", "langgraph", "langchain-core",
                       "ag-ui-protocol"))

    return app


if __name__ == "__main__":
    main(build_app, 8701)
