// A Mastra agent served through @ag-ui/mastra, with a scripted language model.
//
// Usage: node server.mjs PORT   (listens on 127.0.0.1:PORT; POST / takes a RunAgentInput)
// (run with the pinned Node of this folder: node_modules/.bin/node, >= 22.13
// as @mastra/core asks.)
//
// The model is an AI SDK LanguageModelV2 object of our own whose stream is
// scripted from the prompt, as common/script.py scripts the Python servers
// (same keywords, same tool names, same arguments). The agent has a backend
// tool (`weather_lookup`; the client's `get_weather` is called instead when
// the request offers it: @ag-ui/mastra hands the request's tools to the
// model as client tools), a tool that changes the shared state (`add_todo`,
// which writes Mastra's working memory; @ag-ui/mastra answers it with a
// STATE_SNAPSHOT), tools that suspend for approval (`make_payment`,
// `delete_drafts`: Mastra's tool suspend, which @ag-ui/mastra ends with the
// interrupt outcome and resumes from `resume`), a sub-agent used as a tool
// (`researcher`, Mastra's `agents` option: "research" calls it twice), and
// the failure path (the model throws). @ag-ui/mastra has no SUBAGENT_*
// events: a sub-agent's work arrives as a tool call and its result.
//
// HTTP glue (the package has no endpoint of its own): each request's body is
// given to `new MastraAgent({...}).run(input)` and every event it emits is
// written as SSE with @ag-ui/encoder. If that Observable errors, the glue
// writes one RUN_ERROR with the error's message, as the AG-UI docs' server
// example does.

import http from "node:http";
import { createRequire } from "node:module";
import { Agent } from "@mastra/core/agent";
import { Mastra } from "@mastra/core";
import { Memory } from "@mastra/memory";
import { InMemoryStore } from "@mastra/core/storage";
import { createTool } from "@mastra/core/tools";
import { MastraAgent } from "@ag-ui/mastra";
import { EventEncoder } from "@ag-ui/encoder";
import { createHash } from "node:crypto";
import { z } from "zod";

const require = createRequire(import.meta.url);
const CLIENT_WEATHER_TOOL = "get_weather";
// common/script.py's keywords, first match wins.
const KEYWORDS = [
  ["fail", "failure"], ["research", "subagents"], ["book", "subagent-interrupt"], ["confirm", "confirm"],
  ["pay", "interrupt"], ["approv", "interrupt"], ["todo", "state"], ["state", "state"],
  ["weather", "tool"], ["tool", "tool"],
];
const RESEARCHER = "SUBAGENT:researcher";

function scenarioOf(text) {
  const low = typeof text === "string" ? text.toLowerCase() : "";
  for (const [word, scenario] of KEYWORDS) if (low.includes(word)) return scenario;
  return "text";
}

// common/script.py's call_id: sha1(name + json.dumps(args, sort_keys=True))[:8]
// (Python's separators: ", " and ": "; keys sorted).
function pyJson(value) {
  if (Array.isArray(value)) return `[${value.map(pyJson).join(", ")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}: ${pyJson(value[k])}`).join(", ")}}`;
  }
  return JSON.stringify(value);
}
function callId(name, args) {
  return `call_${name}_${createHash("sha1").update(`${name}${pyJson(args)}`).digest("hex").slice(0, 8)}`;
}
function words(text) {
  const parts = text.split(" ");
  return parts.map((p, i) => p + (i < parts.length - 1 ? " " : ""));
}
function approved(answer) {
  return answer === true || (answer && typeof answer === "object" && answer.approved === true);
}

function textOf(content) {
  if (typeof content === "string") return content;
  return (content || []).filter((p) => p.type === "text").map((p) => p.text).join("");
}

class ScriptedFailure extends Error {}

// An AI SDK LanguageModelV2 whose every answer is scripted from the prompt.
function scriptedModel() {
  function reply(options) {
    const prompt = options.prompt || [];
    const system = prompt.filter((m) => m.role === "system").map((m) => textOf(m.content)).join(" ");
    const users = prompt.filter((m) => m.role === "user");
    const userText = users.length ? textOf(users[users.length - 1].content) : "";
    const last = prompt[prompt.length - 1];
    const results = last && last.role === "tool" ? last.content.filter((p) => p.type === "tool-result") : [];
    if (system.includes(RESEARCHER)) {
      const city = userText.toLowerCase().includes("porto") ? "Porto" : "Lisbon";
      return { text: `Research done: ${city} is sunny today.` };
    }
    const scenario = scenarioOf(userText);
    if (scenario === "failure") throw new ScriptedFailure("scripted model failure (the failure scenario)");
    if (results.length) {
      const out = results[0].output;
      const value = out && typeof out === "object" && "value" in out ? out.value : out;
      const shown = typeof value === "string" ? value : JSON.stringify(value);
      return { text: `All done. ${String(shown).slice(0, 80)}`.trim() };
    }
    const offered = new Set((options.tools || []).map((t) => t.name));
    const weather = offered.has(CLIENT_WEATHER_TOOL) ? CLIENT_WEATHER_TOOL : "weather_lookup";
    const calls = {
      tool: [[weather, { city: "Lisbon" }]],
      state: [["add_todo", { item: "buy milk" }]],
      interrupt: [["make_payment", { amount: 89, currency: "EUR" }]],
      "subagent-interrupt": [["make_payment", { amount: 120, currency: "EUR" }]],
      confirm: [["delete_drafts", {}]],
      subagents: [["agent-researcher", { prompt: "Research Lisbon" }], ["agent-researcher", { prompt: "Research Porto" }]],
    };
    if (calls[scenario]) return { calls: calls[scenario].filter(([name]) => offered.has(name)) };
    return { text: "Hello from the scripted Mastra agent." };
  }

  const usage = { inputTokens: 10, outputTokens: 10, totalTokens: 20 };
  return {
    specificationVersion: "v2",
    provider: "scripted",
    modelId: "scripted",
    supportedUrls: {},
    async doGenerate(options) {
      const r = reply(options);
      const content = r.calls
        ? r.calls.map(([name, args]) => ({ type: "tool-call", toolCallId: callId(name, args), toolName: name, input: JSON.stringify(args) }))
        : [{ type: "text", text: r.text }];
      return { content, finishReason: r.calls ? "tool-calls" : "stop", usage, warnings: [] };
    },
    async doStream(options) {
      const r = reply(options);
      const parts = [{ type: "stream-start", warnings: [] }];
      if (r.calls) {
        for (const [name, args] of r.calls) {
          parts.push({ type: "tool-call", toolCallId: callId(name, args), toolName: name, input: JSON.stringify(args) });
        }
        parts.push({ type: "finish", finishReason: "tool-calls", usage });
      } else {
        parts.push({ type: "text-start", id: "text-1" });
        for (const delta of words(r.text)) parts.push({ type: "text-delta", id: "text-1", delta });
        parts.push({ type: "text-end", id: "text-1" });
        parts.push({ type: "finish", finishReason: "stop", usage });
      }
      return { stream: new ReadableStream({ start(c) { for (const p of parts) c.enqueue(p); c.close(); } }) };
    },
  };
}

const weatherLookup = createTool({
  id: "weather_lookup",
  description: "The weather in a city (scripted).",
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => `Sunny, 21 C in ${city}.`,
});

const addTodo = createTool({
  id: "add_todo",
  description: "Add an item to the shared todo list (kept in the agent's working memory).",
  inputSchema: z.object({ item: z.string() }),
  execute: async ({ item }, context) => {
    const memory = await chief.getMemory();
    const threadId = context?.agent?.threadId;
    const resourceId = context?.agent?.resourceId;
    let todos = [];
    try {
      const current = JSON.parse((await memory.getWorkingMemory({ threadId, resourceId })) || "{}");
      todos = Array.isArray(current.todos) ? current.todos : [];
    } catch { /* no working memory yet */ }
    await memory.updateWorkingMemory({ threadId, resourceId, workingMemory: JSON.stringify({ todos: [...todos, item] }) });
    return `Added ${item}.`;
  },
});

function approvalTool(id, description, done, declined) {
  return createTool({
    id,
    description,
    inputSchema: id === "make_payment" ? z.object({ amount: z.number(), currency: z.string() }) : z.object({}),
    suspendSchema: z.object({ message: z.string() }),
    resumeSchema: z.object({ approved: z.boolean() }),
    execute: async (input, context) => {
      const agent = context?.agent;
      if (!agent?.resumeData) {
        return agent.suspend({ message: `Approve ${id}?` });
      }
      return approved(agent.resumeData) ? done(input) : declined;
    },
  });
}

const makePayment = approvalTool("make_payment", "Pay an amount (suspends for the user's approval first).",
  ({ amount, currency }) => `Paid ${amount} ${currency}.`, "Payment declined by the user.");
const deleteDrafts = approvalTool("delete_drafts", "Delete the saved drafts (suspends for the user's confirmation first).",
  () => "Deleted 3 drafts.", "Nothing deleted: the user declined.");

const model = scriptedModel();
const researcher = new Agent({
  id: "researcher", name: "researcher", description: "Researches one city.",
  instructions: `${RESEARCHER} You research a city.`, model,
});
const storage = new InMemoryStore();
const memory = new Memory({ storage, options: { lastMessages: 20, workingMemory: { enabled: true, scope: "thread" } } });
const chief = new Agent({
  id: "assistant", name: "assistant", instructions: "You are the scripted conformance agent.", model, memory,
  tools: { weather_lookup: weatherLookup, add_todo: addTodo, make_payment: makePayment, delete_drafts: deleteDrafts },
  agents: { researcher },
});
const mastra = new Mastra({ agents: { assistant: chief, researcher }, storage, logger: false });
const served = mastra.getAgent("assistant");

function versions() {
  const out = {};
  for (const name of ["@ag-ui/mastra", "@mastra/core", "@mastra/memory", "@ag-ui/client"]) {
    out[name] = require(`${name}/package.json`).version;
  }
  out.node = process.versions.node;
  return out;
}

async function run(req, res) {
  let body = "";
  for await (const chunk of req) body += chunk;
  let input;
  try {
    input = JSON.parse(body);
  } catch {
    res.writeHead(400, { "content-type": "text/plain" }).end("the body is not JSON");
    return;
  }
  const encoder = new EventEncoder();
  res.writeHead(200, { "content-type": encoder.getContentType(), "cache-control": "no-cache" });
  const agent = new MastraAgent({ agent: served, resourceId: "conformance-user" });
  await new Promise((resolve) => {
    agent.run(input).subscribe({
      next: (event) => res.write(encoder.encode(event)),
      error: (error) => {
        res.write(encoder.encode({ type: "RUN_ERROR", message: String(error?.message ?? error) }));
        resolve();
      },
      complete: resolve,
    });
  });
  res.end();
}

const port = Number(process.argv[2] || 8708);
http.createServer((req, res) => {
  if (req.method === "GET" && req.url === "/versions") {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(versions()));
  } else if (req.method === "POST" && (req.url === "/" || req.url.startsWith("/?"))) {
    run(req, res).catch((error) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(error?.stack ?? error));
    });
  } else {
    res.writeHead(404).end();
  }
}).listen(port, "127.0.0.1");
