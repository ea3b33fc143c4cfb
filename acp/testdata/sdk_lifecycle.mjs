// A client on the official TypeScript ACP SDK walking a session's whole
// life through tandem: no key yet (the prompt is answered auth_required),
// `tandem login` in a terminal's stead, authenticate, a session with a
// second root, a prompt, a fork, and deleting the fork. It prints what it
// saw as one JSON object for the Go test.
//
// usage: node sdk_lifecycle.mjs TANDEM_BINARY WORKSPACE SECOND_ROOT KEY
import { spawn, spawnSync } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { client, methods, ndJsonStream, PROTOCOL_VERSION } from "@agentclientprotocol/sdk";

const [bin, cwd, second, key] = process.argv.slice(2);
const agentProcess = spawn(bin, ["acp"], { stdio: ["pipe", "pipe", "inherit"] });
const seen = { updates: [] };

const app = client({ name: "tandem-sdk-lifecycle" })
  .onRequest(methods.client.session.requestPermission, () => ({ outcome: { outcome: "selected", optionId: "allow_once" } }))
  .onNotification(methods.client.session.update, ({ params }) => {
    seen.updates.push(params.update.sessionUpdate);
  });

const stream = ndJsonStream(Writable.toWeb(agentProcess.stdin), Readable.toWeb(agentProcess.stdout));
try {
  const result = await app.connectWith(stream, async (ctx) => {
    const init = await ctx.request(methods.agent.initialize, {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    });
    const first = await ctx.request(methods.agent.session.new, { cwd, mcpServers: [] });
    let refused = null;
    try {
      await ctx.request(methods.agent.session.prompt, { sessionId: first.sessionId, prompt: [{ type: "text", text: "hi" }] });
    } catch (e) {
      refused = { code: e.code, message: e.message };
    }
    const login = spawnSync(bin, ["login", "--provider", "anthropic"], { input: key + "\n", encoding: "utf8" });
    const methodId = init.authMethods.find((m) => m.id === "anthropic-api-key").id;
    await ctx.request(methods.agent.authenticate, { methodId });
    const session = await ctx.request(methods.agent.session.new, { cwd, additionalDirectories: [second], mcpServers: [] });
    const turn = await ctx.request(methods.agent.session.prompt, {
      sessionId: session.sessionId,
      prompt: [{ type: "text", text: "which roots do you see?" }],
    });
    // session/fork is unstable: the SDK's stable method table has no name for it.
    const fork = await ctx.request(methods.agent.session.fork ?? "session/fork", { sessionId: session.sessionId, cwd, mcpServers: [] });
    const listBefore = await ctx.request(methods.agent.session.list, { cwd });
    await ctx.request(methods.agent.session.delete, { sessionId: fork.sessionId });
    const listAfter = await ctx.request(methods.agent.session.list, { cwd });
    return { init, refused, loginStatus: login.status, session, turn, fork, listBefore, listAfter };
  });
  process.stdout.write(JSON.stringify({ ...result, ...seen }) + "\n");
} finally {
  agentProcess.stdin.end();
}
