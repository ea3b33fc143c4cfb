// Unit tests of the extension's pure parts (no vscode module): the chat
// model and its HTML, Markdown, the inline permission prompts, the status
// bar text and the session list. What needs VS Code itself is tested in
// code-server by e2e/run.mjs (go test ./editors -run VSCodeServer).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { ChatModel, renderBody } from '../chat';
import { escapeHtml, plural, renderMarkdown } from '../markdown';
import { Permissions } from '../permission';
import { RequestPermissionParams, SessionUpdate } from '../protocol';
import { serverCommand } from '../binary';
import { sessionItems } from '../sessionList';
import { Status, tokens } from '../status';

const options: RequestPermissionParams['options'] = [
  { optionId: 'allow_once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'allow_always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
];

const editRequest: RequestPermissionParams = {
  sessionId: 's1',
  toolCall: {
    toolCallId: 'c1', title: 'Edit main.go', kind: 'edit', status: 'pending',
    content: [{ type: 'diff', path: '/w/main.go', oldText: 'a\nb\nc\n', newText: 'a\nB\nc\n' }],
  },
  options,
};

test('chat: chunks join, tool calls update in place, one plan per turn', () => {
  const m = new ChatModel();
  m.user('fix it');
  const updates: SessionUpdate[] = [
    { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'Let me ' } },
    { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'look.' } },
    { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Reading ' } },
    { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'main.go.' } },
    { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Read main.go', kind: 'read', status: 'pending' },
    { sessionUpdate: 'plan', entries: [{ content: 'read', status: 'in_progress' }] },
    { sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed' },
    { sessionUpdate: 'plan', entries: [{ content: 'read', status: 'completed' }, { content: 'edit', status: 'pending' }] },
    { sessionUpdate: 'current_mode_update', currentModeId: 'auto-edit' },
  ];
  updates.forEach((u) => m.apply(u));
  assert.deepEqual(m.entries.map((e) => e.kind), ['user', 'thought', 'agent', 'tool', 'plan', 'note']);
  assert.equal((m.entries[1] as { text: string }).text, 'Let me look.');
  const tool = m.entries[3] as { tool: { status: string; title: string } };
  assert.equal(tool.tool.status, 'completed');
  assert.equal(tool.tool.title, 'Read main.go', 'an update without a title keeps the old one');
  assert.equal((m.entries[4] as { entries: unknown[] }).entries.length, 2);
  assert.equal(m.mode, 'auto-edit');
  const html = renderBody(m);
  assert.match(html, /1 of 2 steps done/);
  m.user('again');
  m.apply({ sessionUpdate: 'plan', entries: [{ content: 'only', status: 'pending' }] });
  assert.match(renderBody(m), /0 of 1 step done/, 'a new turn gets its own plan, and "1 step" is singular');
});

test('chat: a subagent\'s reply stays out of the chat; its calls show', () => {
  const m = new ChatModel();
  const nest = { tandem: { parentToolCallId: 't1', agent: 'explore' } };
  m.apply({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Delegating.' } });
  m.apply({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Task (explore)', status: 'pending' });
  m.apply({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'child talk' }, _meta: nest });
  m.apply({ sessionUpdate: 'tool_call', toolCallId: 't1/c1', title: 'Read a.txt', status: 'pending' });
  assert.deepEqual(m.entries.map((e) => e.kind), ['agent', 'tool', 'tool']);
  assert.ok(!renderBody(m).includes('child talk'));
});

test('chat: everything the model wrote is escaped; tools show command, files, status', () => {
  const m = new ChatModel();
  m.apply({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: '<script>alert(1)</script> **bold**' } });
  m.apply({ sessionUpdate: 'tool_call', toolCallId: 'x', title: 'Edit <b>', status: 'failed',
    content: [{ type: 'diff', path: '/w/a&b.ts', oldText: null, newText: 'x' }] });
  m.apply({ sessionUpdate: 'tool_call', toolCallId: 'y', title: 'Run tests', kind: 'execute', status: 'in_progress',
    rawInput: { command: 'go test ./... && echo "<ok>"' } });
  const html = renderBody(m);
  assert.ok(!html.includes('<script>'), html);
  assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt; <strong>bold</strong>'), html);
  assert.match(html, /class="tool failed"/);
  assert.match(html, /new file <a href="#" data-action="diff" data-tool="x" data-index="0" title="\/w\/a&amp;b.ts">a&amp;b.ts<\/a>/);
  assert.match(html, /<pre class="command">\$ go test \.\/\.\.\. &amp;&amp; echo &quot;&lt;ok&gt;&quot;<\/pre>/);
  assert.match(html, /<span class="status">running<\/span>/);
  assert.equal(escapeHtml('"&'), '&quot;&amp;');
});

test('markdown: code fences, lists, headings, inline marks, no raw HTML', () => {
  const html = renderMarkdown('# Title\n\nSome `a<b` and *it*.\n\n- one\n- two\n\n```go\nif a < b {}\n```\n[x](https://e.x) [y](javascript:alert(1))');
  assert.equal(html,
    '<h3>Title</h3><p>Some <code>a&lt;b</code> and <em>it</em>.</p><ul><li>one</li><li>two</li></ul>' +
    '<pre><code class="language-go">if a &lt; b {}</code></pre><p><a href="https://e.x">x</a> [y](javascript:alert(1))</p>');
  assert.equal(renderMarkdown('```\nstill streaming'), '<pre><code>still streaming</code></pre>');
  assert.equal(plural(1, 'step'), '1 step');
  assert.equal(plural(3, 'step'), '3 steps');
});

test('permission: inline prompt shows the exact diff; a click answers; turn end cancels', async () => {
  const m = new ChatModel();
  const changes: number[] = [];
  const perms = new Permissions(() => m, (d) => changes.push(d));
  const first = perms.request(editRequest);
  let html = renderBody(m);
  assert.match(html, /Allow Edit main\.go\?/);
  assert.match(html, /<span class="del">-b<\/span>\n<span class="add">\+B<\/span>/, html);
  assert.match(html, /data-action="permission" data-id="1" data-option="allow_always"/);
  assert.equal(perms.answer(1, 'nope'), false, 'an option not offered is refused');
  assert.equal(perms.answer(1, 'allow_once'), true);
  assert.deepEqual(await first, { outcome: { outcome: 'selected', optionId: 'allow_once' } });
  html = renderBody(m);
  assert.match(html, /class="permission answered"/);
  assert.match(html, /<div class="answer">You chose: Allow<\/div>/);
  assert.ok(!html.includes('data-action="permission"'), 'an answered prompt has no buttons');
  const second = perms.request({ ...editRequest, toolCall: { toolCallId: 'c2', kind: 'execute', title: 'Run', rawInput: { command: 'rm -rf build' } } });
  assert.match(renderBody(m), /<pre class="command">\$ rm -rf build<\/pre>/);
  perms.cancelAll();
  assert.deepEqual(await second, { outcome: { outcome: 'cancelled' } });
  assert.equal(perms.pending, 0);
  assert.deepEqual(changes, [1, -1, 1, -1]);
});

test('status bar: state and usage', () => {
  const item = { text: '', tooltip: '' as unknown, show() {} };
  const s = new Status(item as never);
  assert.equal(item.text, '$(hubot) tandem: idle');
  s.progress('t1', { kind: 'begin', title: 'tandem', message: 'Edit main.go' });
  assert.equal(item.text, '$(sync~spin) tandem: Edit main.go');
  s.approval(+1);
  assert.equal(item.text, '$(bell-dot) tandem: waiting for your approval');
  s.approval(-1);
  s.setUsage({ used: 12345, size: 200000, cost: { amount: 0.0312, currency: 'USD' } });
  s.progress('t1', { kind: 'end' });
  assert.equal(item.text, '$(hubot) tandem: idle · 12.3k/200k');
  assert.match(String(item.tooltip), /12,345 of 200,000 tokens \(6%\)/);
  assert.match(String(item.tooltip), /Cost so far: 0\.03 USD/);
  assert.equal(tokens(999), '999');
  assert.equal(tokens(1000), '1k');
});

test('session list: titles and ages, newest first, never a raw id', () => {
  const now = new Date('2026-01-02T12:00:00Z');
  const items = sessionItems([
    { sessionId: 'sess-aaa', cwd: '/w', title: 'Fix the greeting\nmore', mode: 'code', updatedAt: '2026-01-02T11:59:30Z' },
    { sessionId: 'sess-bbb', cwd: '/w', updatedAt: '2026-01-01T11:00:00Z' },
    { sessionId: 'sess-ccc', cwd: '/w', title: 'x', updatedAt: '2026-01-02T11:00:00Z' },
  ], now);
  assert.deepEqual(items.map((i) => [i.label, i.description]), [
    ['Fix the greeting', 'just now · code mode'],
    ['x', '1 hour ago'],
    ['Untitled session', '1 day ago'],
  ]);
  assert.ok(!JSON.stringify(items.map(({ session: _, ...i }) => i)).includes('sess-'));
});

test('serverCommand: the user setting, then the bundled binary, then PATH', () => {
  const has = (...files: string[]) => (p: string) => files.includes(p);
  const bundled = path.join('/ext', 'bin', 'tandem');
  assert.equal(serverCommand('/opt/tandem', '/ext', 'linux', has(bundled)), '/opt/tandem');
  assert.equal(serverCommand(undefined, '/ext', 'linux', has(bundled)), bundled);
  assert.equal(serverCommand(undefined, '/ext', 'win32', has(path.join('/ext', 'bin', 'tandem.exe'))), path.join('/ext', 'bin', 'tandem.exe'));
  assert.equal(serverCommand(undefined, '/ext', 'linux', has()), 'tandem');
});
