// A tiny AG-UI endpoint for the live tests: POST / answers a scripted run
// as Server-Sent Events (`text/event-stream`), `/planted` with the
// ownership bug of streams.js's `planted`. As a proxy (`upstream`), it
// forwards the request to a real producer and, on `/planted`, plants the
// same bug in its answer: the first message's opener (TEXT_MESSAGE_START,
// or its first TEXT_MESSAGE_CHUNK) is tagged s1 and its second delta (a
// TEXT_MESSAGE_CONTENT or chunk) s2: a subagent continuing another's
// message. `planted.index` is then the index of that event.

import http from "node:http";
import { planted, valid } from "./streams.js";

const sse = (event) => `data: ${JSON.stringify(event)}\n\n`;

function plant() {
  let opened;
  let contents = 0;
  let index = -1;
  return {
    rewrite(event, i) {
      const chunk = event.type === "TEXT_MESSAGE_CHUNK";
      if ((event.type === "TEXT_MESSAGE_START" || chunk) && opened === undefined) {
        opened = event.messageId;
        if (chunk) contents++; // the first chunk opens the message and carries its first delta
        return { ...event, subagentRunId: "s1" };
      }
      if ((event.type === "TEXT_MESSAGE_CONTENT" || chunk) && event.messageId === opened && ++contents === 2) {
        index = i;
        return { ...event, subagentRunId: "s2" };
      }
      return event;
    },
    get index() {
      return index;
    },
  };
}

async function readBody(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  return Buffer.concat(chunks).toString("utf8");
}

/** Starts the server on 127.0.0.1 (a free port); `upstream`: a producer's
 * URL to proxy. Resolves `{url, close, plantedAt, requests}`. */
export async function startServer({ upstream } = {}) {
  const state = { plantedAt: -1, requests: [] };
  const server = http.createServer(async (req, res) => {
    const body = await readBody(req);
    state.requests.push({ url: req.url, headers: req.headers, body });
    const bug = req.url === "/planted";
    if (req.method !== "POST") {
      res.writeHead(405).end();
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    if (!upstream) {
      for (const event of bug ? planted : valid) res.write(sse(event));
      res.end();
      return;
    }
    const planter = plant();
    const answer = await fetch(upstream, { method: "POST", headers: { "content-type": "application/json", accept: "text/event-stream" }, body });
    const decoder = new TextDecoder();
    let buffered = "";
    let i = 0;
    for await (const chunk of answer.body) {
      buffered += decoder.decode(chunk, { stream: true });
      let end;
      while ((end = buffered.indexOf("\n\n")) >= 0) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const data = block.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trimStart()).join("\n");
        if (!data) continue;
        const event = JSON.parse(data);
        res.write(sse(bug ? planter.rewrite(event, i) : event));
        i++;
      }
    }
    if (bug) state.plantedAt = planter.index;
    res.end();
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
    get plantedAt() {
      return state.plantedAt;
    },
    /** Every request received: `{url, headers, body}`. */
    requests: state.requests,
  };
}
