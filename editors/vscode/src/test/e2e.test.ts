// End-to-end: `tandem lsp` driven through vscode-languageserver-protocol,
// the JSON-RPC code VS Code's client runs on, with the extension's own
// permission, chat and status modules answering the server. The Go test
// (editors/vscode_test.go) sets TANDEM_BIN and points tandem at a fake
// model scripted to edit sub/hello.txt.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  ApplyWorkspaceEditParams, createProtocolConnection, StreamMessageReader, StreamMessageWriter, TextEdit,
} from 'vscode-languageserver-protocol/node';
import { install, recorded, setAnswer, vscodeMock } from './vscode-mock';
install();
import { ChatModel, renderBody } from '../chat';
import { askPermission } from '../permission';
import { experimentalCapabilities, Method, NewSessionResult, PromptResult, RequestPermissionParams, UpdateParams } from '../protocol';
import { ProgressStatus, ProgressValue } from '../status';

const bin = process.env.TANDEM_BIN;

// applyEdits applies LSP text edits to text; JS strings index in UTF-16
// code units, which is what the server uses unless told otherwise.
function applyEdits(text: string, edits: TextEdit[]): string {
  const lines = text.split('\n');
  const offset = (p: { line: number; character: number }) =>
    lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  for (const e of sorted) text = text.slice(0, offset(e.range.start)) + e.newText + text.slice(offset(e.range.end));
  return text;
}

test('tandem lsp: a prompt streams updates, asks through the modal and edits the open document', { skip: !bin && 'TANDEM_BIN is not set; run it through `go test ./editors`' }, async () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-vscode-')));
  const file = path.join(root, 'sub', 'hello.txt');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const disk = 'package main\nhello world\nlast line\n';
  fs.writeFileSync(file, disk);
  const uri = pathToFileURL(file).toString();
  let text = 'package main\ngreetings world\nlast line\n'; // unsaved editor text
  let version = 1;

  const proc = spawn(bin!, ['lsp'], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  const conn = createProtocolConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
  const chat = new ChatModel();
  const item = vscodeMock.window.createStatusBarItem();
  const status = new ProgressStatus(item);
  const statusTexts: string[] = [];
  const applied: ApplyWorkspaceEditParams[] = [];

  conn.onNotification(Method.update, (p: UpdateParams) => chat.apply(p.update));
  setAnswer('Allow');
  recorded.modals.length = 0;
  conn.onRequest(Method.requestPermission, (p: RequestPermissionParams) => askPermission(vscodeMock.window as never, p));
  conn.onRequest('window/workDoneProgress/create', () => null);
  conn.onNotification('$/progress', (p: { token: string; value: ProgressValue }) => {
    status.handle(String(p.token), p.value);
    statusTexts.push(item.text);
  });
  conn.onRequest('workspace/applyEdit', (p: ApplyWorkspaceEditParams) => {
    applied.push(p);
    for (const dc of (p.edit.documentChanges ?? []) as { textDocument?: { uri: string; version: number | null }; edits?: TextEdit[] }[]) {
      if (!dc.textDocument || dc.textDocument.uri !== uri) return { applied: false, failureReason: `unexpected change ${JSON.stringify(dc)}` };
      if (dc.textDocument.version !== version) return { applied: false, failureReason: 'stale version' };
      text = applyEdits(text, dc.edits!);
    }
    for (const [u, edits] of Object.entries(p.edit.changes ?? {})) {
      if (u !== uri) return { applied: false, failureReason: `unexpected uri ${u}` };
      text = applyEdits(text, edits);
    }
    version++;
    conn.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] });
    return { applied: true };
  });
  conn.listen();

  try {
    await conn.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(root).toString(),
      workspaceFolders: [{ uri: pathToFileURL(root).toString(), name: 'ws' }],
      // What VS Code's client declares for edits, plus the extension's
      // experimental flag.
      capabilities: {
        workspace: {
          applyEdit: true,
          workspaceEdit: {
            documentChanges: true, resourceOperations: ['create', 'rename', 'delete'],
            failureHandling: 'textOnlyTransactional', changeAnnotationSupport: { groupsOnLabel: true },
          },
        },
        window: { workDoneProgress: true, showMessage: { messageActionItem: { additionalPropertiesSupport: true } } },
        experimental: experimentalCapabilities,
      },
    });
    conn.sendNotification('initialized', {});
    conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'plaintext', version, text } });

    const session = await conn.sendRequest<NewSessionResult>(Method.newSession, { cwd: root, mode: 'code' });
    assert.match(session.sessionId, /\S/);
    assert.equal(session.modes.currentModeId, 'code');
    assert.ok(session.modes.availableModes.some((m) => m.id === 'full-auto'));

    chat.user('change the greeting');
    const res = await conn.sendRequest<PromptResult>(Method.prompt, {
      sessionId: session.sessionId,
      prompt: [{ type: 'text', text: 'change the greeting' }],
      context: [{ uri, range: { start: { line: 1, character: 0 }, end: { line: 2, character: 0 } } }],
    });
    assert.equal(res.stopReason, 'end_turn');

    assert.equal(text, 'package main\ngoodbye world\nlast line\n', 'the open document got the edit');
    assert.equal(fs.readFileSync(file, 'utf8'), disk, 'nothing was written to disk behind the editor');
    assert.equal(applied.length, 1);
    assert.match(applied[0].label ?? '', /edit_file/);

    assert.equal(recorded.modals.length, 1, 'one permission modal');
    assert.deepEqual(recorded.modals[0].items, [
      'Allow',
      'Always allow edits in sub/ in this project',
      'Reject',
      'Always reject edits in sub/ in this project',
    ]);
    assert.match(recorded.modals[0].message, /hello\.txt/);

    const html = renderBody(chat);
    assert.match(html, /I will change the greeting\./);
    assert.match(html, /Changed the greeting\./);
    assert.match(html, /class="tool completed"/);
    assert.match(html, /<div class="thought"><p>The greeting is on line 2\.<\/p>/);
    assert.match(html, /<li class="in_progress">Rewrite the greeting<\/li>/);

    assert.ok(statusTexts.some((s) => s.startsWith('$(sync~spin)')), `status went busy: ${statusTexts}`);
    assert.equal(item.text, '$(hubot) tandem', 'status back to idle after the turn');

    await conn.sendRequest('shutdown');
    conn.sendNotification('exit');
    const code = await new Promise<number | null>((resolve) => proc.on('exit', resolve));
    assert.equal(code, 0);
  } finally {
    conn.dispose();
    // Closing stdin ends the server even if it ignores signals.
    proc.stdin?.end();
    proc.kill();
    fs.rmSync(root, { recursive: true, force: true });
  }
});
