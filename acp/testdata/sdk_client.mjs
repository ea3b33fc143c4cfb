// A small editor on the official TypeScript ACP SDK: it starts
// `tandem acp`, runs one prompt turn in the workspace, answers permission
// requests with allow_once, writes files the agent hands it to disk, and
// prints what it saw as one JSON object on stdout for the Go test to check.
//
// usage: node sdk_client.mjs TANDEM_BINARY WORKSPACE PROMPT
import { spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { Readable, Writable } from "node:stream";
import { client, methods, ndJsonStream, PROTOCOL_VERSION } from "@agentclientprotocol/sdk";

const [bin, cwd, prompt] = process.argv.slice(2);
if (!bin || !cwd || !prompt) {
  console.error("usage: node sdk_client.mjs TANDEM_BINARY WORKSPACE PROMPT");
  process.exit(2);
}

const agentProcess = spawn(bin, ["acp"], { stdio: ["pipe", "pipe", "inherit"] });
const seen = { updates: [], permissions: [], reads: [], writes: [] };

const app = client({ name: "tandem-sdk-test" })
  .onRequest(methods.client.session.requestPermission, ({ params }) => {
    seen.permissions.push(params);
    return { outcome: { outcome: "selected", optionId: "allow_once" } };
  })
  .onRequest(methods.client.fs.readTextFile, async ({ params }) => {
    seen.reads.push(params.path);
    return { content: await readFile(params.path, "utf8") };
  })
  .onRequest(methods.client.fs.writeTextFile, async ({ params }) => {
    seen.writes.push({ path: params.path, content: params.content });
    await writeFile(params.path, params.content);
    return {};
  })
  .onNotification(methods.client.session.update, ({ params }) => {
    seen.updates.push(params.update);
  });

const stream = ndJsonStream(Writable.toWeb(agentProcess.stdin), Readable.toWeb(agentProcess.stdout));
try {
  const result = await app.connectWith(stream, async (ctx) => {
    const init = await ctx.request(methods.agent.initialize, {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
    });
    const session = await ctx.request(methods.agent.session.new, { cwd, mcpServers: [] });
    const turn = await ctx.request(methods.agent.session.prompt, {
      sessionId: session.sessionId,
      prompt: [{ type: "text", text: prompt }],
    });
    const list = await ctx.request(methods.agent.session.list, { cwd });
    return { init, session, turn, list };
  });
  process.stdout.write(JSON.stringify({ ...result, ...seen }) + "\n");
} finally {
  agentProcess.stdin.end();
}
