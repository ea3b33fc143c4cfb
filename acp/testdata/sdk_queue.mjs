// An editor on the official TypeScript ACP SDK that lets the user type
// while the agent works: it starts `tandem acp` (with debug logs on its
// stderr), sends a prompt, and when tandem asks permission for a tool call
// sends a second prompt, waits until tandem has logged it as queued, then
// allows the call. It prints, as one JSON object, the agent's capabilities,
// both answers, and the order in which answers and message chunks arrived.
//
// usage: node sdk_queue.mjs TANDEM_BINARY WORKSPACE
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { client, methods, ndJsonStream, PROTOCOL_VERSION } from "@agentclientprotocol/sdk";

const [bin, cwd] = process.argv.slice(2);
if (!bin || !cwd) {
  console.error("usage: node sdk_queue.mjs TANDEM_BINARY WORKSPACE");
  process.exit(2);
}

const agentProcess = spawn(bin, ["acp"], { stdio: ["pipe", "pipe", "pipe"] });
let stderr = "";
let onQueued = null;
agentProcess.stderr.on("data", (chunk) => {
  stderr += chunk;
  process.stderr.write(chunk);
  if (onQueued && stderr.includes("prompt queued behind the running turn")) {
    onQueued();
    onQueued = null;
  }
});
const queued = new Promise((resolve) => (onQueued = resolve));

const timeline = [];
let sendSecond = null;
const app = client({ name: "tandem-sdk-queue-test" })
  .onRequest(methods.client.session.requestPermission, async () => {
    sendSecond();
    await queued;
    return { outcome: { outcome: "selected", optionId: "allow_once" } };
  })
  .onNotification(methods.client.session.update, ({ params }) => {
    const u = params.update;
    if (u.sessionUpdate === "agent_message_chunk") timeline.push("chunk:" + u.content.text);
  });

const stream = ndJsonStream(Writable.toWeb(agentProcess.stdin), Readable.toWeb(agentProcess.stdout));
try {
  const result = await app.connectWith(stream, async (ctx) => {
    const init = await ctx.request(methods.agent.initialize, {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    });
    const session = await ctx.request(methods.agent.session.new, { cwd, mcpServers: [] });
    const prompt = (text) =>
      ctx
        .request(methods.agent.session.prompt, { sessionId: session.sessionId, prompt: [{ type: "text", text }] })
        .then((answer) => {
          timeline.push("answer:" + text + ":" + answer.stopReason);
          return answer;
        });
    let second;
    const secondSent = new Promise((resolve) => {
      sendSecond = () => {
        second = prompt("second");
        resolve();
      };
    });
    const first = await prompt("first");
    await secondSent;
    return { promptQueueing: init.agentCapabilities?._meta?.claudeCode?.promptQueueing, first, second: await second };
  });
  process.stdout.write(JSON.stringify({ ...result, timeline }) + "\n");
} finally {
  agentProcess.stdin.end();
}
