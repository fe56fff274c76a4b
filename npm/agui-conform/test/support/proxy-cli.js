// node support/proxy-cli.js UPSTREAM: support/sse-server.js's planting
// proxy in front of a producer, as a process (for scripts/ci-npm.sh's run
// of the docs' example against Mastra). Prints its URL, runs until killed.
import { startServer } from "./sse-server.js";

const upstream = process.argv[2];
const server = await startServer(upstream ? { upstream } : {});
process.stdout.write(`${server.url}\n`);
