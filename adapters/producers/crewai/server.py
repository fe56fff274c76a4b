#!/usr/bin/env python3
"""A CrewAI Flow served by ag-ui-crewai, with litellm's mock completions as the model.

Usage: server.py PORT   (listens on 127.0.0.1:PORT; POST / takes a RunAgentInput)

Paths: ``/`` ends a paused run with the structured interrupt outcome
(``emit_interrupt_outcome=True``); ``/legacy`` is the same flow with the
defaults (the pause is only the ``on_interrupt`` CUSTOM event and a plain
RUN_FINISHED).

The flow is ag-ui-crewai's documented chat flow (``Flow[CopilotKitState]``
whose ``@start`` method streams a litellm completion through
``copilotkit_stream``); the completion is litellm's own mock
(``acompletion(..., mock_response=...)``: no network), its content or tool
call scripted from the conversation (common/script.py). Backend tools run in
the flow: ``weather_lookup`` (the client's ``get_weather`` is left to the
client when the request offers it), ``add_todo`` (writes the flow state, which
ag-ui-crewai streams as state), and the approval tools ``make_payment`` /
``delete_drafts``, which pause in a ``@human_feedback`` method with
ag-ui-crewai's ``agui_feedback_provider`` (CrewAI's async human feedback: the
run ends with an interrupt, the next request's ``resume`` continues it). For
"research", a Crew of two agents (a researcher per city, driven by a scripted
``BaseLLM``) runs inside a flow method; ag-ui-crewai attributes its work with
nested ``STEP_*`` events (no SUBAGENT_* events). The failure path raises in the
flow's first method, where the model is called.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
# Offline: litellm's bundled model-cost map, no telemetry.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("CREWAI_DISABLE_TELEMETRY", "true")
os.environ.setdefault("CREWAI_DISABLE_TRACKING", "true")
os.environ.setdefault("OTEL_SDK_DISABLED", "true")
os.environ.setdefault("CREWAI_TRACING_ENABLED", "false")

from ag_ui_crewai import (  # noqa: E402
    CopilotKitState, add_crewai_flow_fastapi_endpoint, agui_feedback_provider, copilotkit_emit_tool_result,
    copilotkit_stream)
from crewai import Agent, Crew, Task  # noqa: E402
from crewai.flow.flow import Flow, listen, router, start  # noqa: E402
from crewai.flow.human_feedback import human_feedback  # noqa: E402
from crewai.llms.base_llm import BaseLLM  # noqa: E402
from fastapi import FastAPI  # noqa: E402
from litellm import acompletion  # noqa: E402
from litellm.types.utils import ChatCompletionMessageToolCall, Choices, Function, Message, ModelResponse  # noqa: E402

from common.script import CLIENT_WEATHER_TOOL, ScriptedFailure, approved, call_id, scenario_of, scripted_call  # noqa: E402
from common.serve import add_versions, main  # noqa: E402

MODEL = "openai/scripted"
APPROVAL_TOOLS = {"make_payment", "delete_drafts"}


def _get(message, key, default=None):
    return message.get(key, default) if isinstance(message, dict) else getattr(message, key, default)


def _user_text(messages) -> str:
    for message in reversed(messages):
        if _get(message, "role") == "user":
            content = _get(message, "content")
            return content if isinstance(content, str) else ""
    return ""


def _reply(text: str | None = None, calls=()) -> ModelResponse:
    tool_calls = [ChatCompletionMessageToolCall(id=call_id(n, a), type="function",
                                                function=Function(name=n, arguments=json.dumps(a)))
                  for n, a in calls] or None
    message = Message(role="assistant", content=text, tool_calls=tool_calls)
    return ModelResponse(model="scripted", choices=[Choices(index=0, message=message,
                                                            finish_reason="tool_calls" if calls else "stop")])


async def _complete(messages, tools, reply: ModelResponse):
    """One model turn: litellm's mock completion, streamed through ag-ui-crewai."""
    stream = await acompletion(model=MODEL, messages=messages, tools=tools or None, stream=True,
                               mock_response=reply)
    return await copilotkit_stream(stream)


class ScriptedResearcherLLM(BaseLLM):
    """The crew agents' model: one scripted final answer per task."""

    def __init__(self):
        super().__init__(model="scripted")

    def call(self, messages, tools=None, callbacks=None, available_functions=None, **kwargs):
        text = json.dumps(messages) if not isinstance(messages, str) else messages
        city = "Porto" if "Porto" in text else "Lisbon"
        return f"Thought: I know the answer.\nFinal Answer: {city} is sunny today."

    async def acall(self, messages, tools=None, callbacks=None, available_functions=None, **kwargs):
        return self.call(messages, tools, callbacks, available_functions, **kwargs)

    def supports_function_calling(self) -> bool:
        return False

    def supports_stop_words(self) -> bool:
        return False

    def get_context_window_size(self) -> int:
        return 8192


def research_crew() -> Crew:
    llm = ScriptedResearcherLLM()
    agents, tasks = [], []
    for city in ("Lisbon", "Porto"):
        agent = Agent(role=f"{city} researcher", goal=f"Research {city}", backstory="A scripted researcher.",
                      llm=llm, allow_delegation=False, verbose=False)
        agents.append(agent)
        tasks.append(Task(description=f"Research {city}.", expected_output="One sentence.", agent=agent))
    return Crew(agents=agents, tasks=tasks, verbose=False)


class TodoState(CopilotKitState):
    """ag-ui-crewai's CopilotKitState with the shared todo list."""

    todos: list = []


class ScriptedFlow(Flow[TodoState]):
    """ag-ui-crewai's chat flow with a scripted model."""

    def _system(self):
        return [{"role": "system", "content": "You are the scripted conformance agent."}]

    @start()
    async def chat(self):
        messages = list(self.state.messages)
        scenario = scenario_of(_user_text(messages))
        if scenario == "failure":
            raise ScriptedFailure("scripted model failure (the failure scenario)")
        actions = list(self.state.copilotkit.actions or [])
        offered = {_get(_get(a, "function", {}) or {}, "name") or _get(a, "name") for a in actions}
        last = messages[-1] if messages else None
        if last is not None and _get(last, "role") == "tool":
            # The client answered its tool: finish the turn.
            await self._answer(f"All done. {str(_get(last, 'content'))[:80]}")
            return "done"
        planned = scripted_call(scenario, offered)
        if scenario == "subagents":
            return "research"
        if planned is None:
            await self._answer("Hello from the scripted CrewAI flow.")
            return "done"
        name, args = planned
        response = await _complete([*self._system(), *messages], actions, _reply(calls=[(name, args)]))
        message = response.choices[0].message
        self.state.messages.append(message)
        if name == CLIENT_WEATHER_TOOL:
            return "done"  # left to the client
        if name in APPROVAL_TOOLS:
            return "approval"
        await self._run_tool(name, args, call_id(name, args))
        await self._answer(f"All done. {self.state.messages[-1]['content']}")
        return "done"

    @router(chat)
    def route(self, outcome):
        return outcome

    async def _run_tool(self, name, args, tool_call_id):
        if name == "weather_lookup":
            result = f"Sunny, 21 C in {args['city']}."
        elif name == "add_todo":
            todos = list(getattr(self.state, "todos", None) or [])
            todos.append(args["item"])
            self.state.todos = todos
            result = f"Added {args['item']}."
        elif name == "make_payment":
            result = f"Paid {args['amount']} {args['currency']}."
        else:
            result = "Deleted 3 drafts."
        self.state.messages.append({"role": "tool", "tool_call_id": tool_call_id, "content": result})
        await copilotkit_emit_tool_result(tool_call_id, result)
        return result

    async def _answer(self, text: str):
        response = await _complete([*self._system(), *self.state.messages], [], _reply(text=text))
        self.state.messages.append(response.choices[0].message)

    @listen("approval")
    @human_feedback(message="Approve the pending tool call? Answer {\"approved\": true} to run it.",
                    provider=agui_feedback_provider)
    def ask_approval(self):
        call = self.state.messages[-1]
        tool_call = _get(call, "tool_calls")[0]
        function = _get(tool_call, "function")
        return {"tool": _get(function, "name"), "arguments": _get(function, "arguments"),
                "tool_call_id": _get(tool_call, "id")}

    @listen(ask_approval)
    async def after_approval(self, result):
        pending = result.output if hasattr(result, "output") else {}
        feedback = getattr(result, "feedback", "") or ""
        try:
            answer = json.loads(feedback) if feedback else None
        except ValueError:
            answer = None
        name, tool_call_id = pending["tool"], pending["tool_call_id"]
        if approved(answer):
            content = await self._run_tool(name, json.loads(pending["arguments"]), tool_call_id)
        else:
            content = "Declined by the user."
            self.state.messages.append({"role": "tool", "tool_call_id": tool_call_id, "content": content})
            await copilotkit_emit_tool_result(tool_call_id, content)
        await self._answer(f"All done. {content}")

    @listen("research")
    async def run_research_crew(self):
        output = await research_crew().kickoff_async()
        await self._answer(f"Research done: {str(output.raw)[:80]}")


def build_app() -> FastAPI:
    app = FastAPI(title="agui-conform producer: ag-ui-crewai + crewai")
    add_crewai_flow_fastapi_endpoint(app, ScriptedFlow(), "/", emit_interrupt_outcome=True)
    add_crewai_flow_fastapi_endpoint(app, ScriptedFlow(), "/legacy")

    add_versions(app, ("ag-ui-crewai", "crewai", "litellm", "ag-ui-protocol"))

    return app


if __name__ == "__main__":
    main(build_app, 8707)
