// An editor on the official TypeScript ACP SDK that shows nested subagents
// and live command output: it initializes with
// clientCapabilities._meta.terminal_output, runs a prompt whose subagent
// asks before it writes (answered allow_once), then a prompt whose command
// prints and waits on FIFO, which this client writes once the first
// terminal_output has arrived. It prints what it saw as one JSON object.
//
// usage: node sdk_nest_live.mjs TANDEM_BINARY WORKSPACE FIFO
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { Readable, Writable } from "node:stream";
import { client, methods, ndJsonStream, PROTOCOL_VERSION } from "@agentclientprotocol/sdk";

const [bin, cwd, fifo] = process.argv.slice(2);
if (!bin || !cwd || !fifo) {
  console.error("usage: node sdk_nest_live.mjs TANDEM_BINARY WORKSPACE FIFO");
  process.exit(2);
}

const agentProcess = spawn(bin, ["acp"], { stdio: ["pipe", "pipe", "inherit"] });
const seen = { updates: [], permissions: [], releasedAfter: -1 };
let released = false;

const app = client({ name: "tandem-sdk-nest-live" })
  .onRequest(methods.client.session.requestPermission, ({ params }) => {
    seen.permissions.push(params);
    return { outcome: { outcome: "selected", optionId: "allow_once" } };
  })
  .onNotification(methods.client.session.update, async ({ params }) => {
    seen.updates.push(params.update);
    const out = params.update._meta?.terminal_output;
    if (!released && out && out.data.includes("first line")) {
      released = true;
      seen.releasedAfter = seen.updates.length;
      await writeFile(fifo, "go\n");
    }
  });

const stream = ndJsonStream(Writable.toWeb(agentProcess.stdin), Readable.toWeb(agentProcess.stdout));
try {
  const result = await app.connectWith(stream, async (ctx) => {
    await ctx.request(methods.agent.initialize, {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: {
        fs: { readTextFile: false, writeTextFile: false },
        terminal: false,
        _meta: { terminal_output: true },
      },
    });
    const session = await ctx.request(methods.agent.session.new, { cwd, mcpServers: [] });
    const ask = (text) =>
      ctx.request(methods.agent.session.prompt, { sessionId: session.sessionId, prompt: [{ type: "text", text }] });
    const nested = await ask("FIX it");
    const live = await ask("RUN it");
    return { nested, live };
  });
  process.stdout.write(JSON.stringify({ ...result, ...seen }) + "\n");
} finally {
  agentProcess.stdin.end();
}
