// Unit tests of the extension's pieces with the mocked vscode module.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { install, recorded, setAnswer, vscodeMock } from './vscode-mock';
install();

import { ChatModel, escapeHtml, renderBody } from '../chat';
import { ChatView } from '../chatView';
import { askPermission, describe } from '../permission';
import { RequestPermissionParams, SessionUpdate } from '../protocol';
import { idleText, ProgressStatus } from '../status';

const options: RequestPermissionParams['options'] = [
  { optionId: 'allow_once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'allow_always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
  { optionId: 'reject_always', name: 'Always reject', kind: 'reject_always' },
];

const editRequest: RequestPermissionParams = {
  sessionId: 's1',
  toolCall: {
    toolCallId: 'c1', title: 'Edit main.go', kind: 'edit', status: 'pending',
    locations: [{ path: '/w/main.go', line: 3 }],
    content: [{ type: 'diff', path: '/w/main.go', oldText: 'a', newText: 'b' }],
  },
  options,
};

test('chat: chunks join, tool calls update in place, plans replace', () => {
  const m = new ChatModel();
  m.user('fix it');
  const updates: SessionUpdate[] = [
    { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'Let me ' } },
    { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'look.' } },
    { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Reading ' } },
    { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'main.go.' } },
    { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Read main.go', kind: 'read', status: 'pending' },
    { sessionUpdate: 'plan', entries: [{ content: 'read', status: 'in_progress' }] },
    { sessionUpdate: 'plan', entries: [{ content: 'read', status: 'completed' }, { content: 'edit', status: 'pending' }] },
    { sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed' },
    { sessionUpdate: 'current_mode_update', currentModeId: 'auto-edit' },
  ];
  updates.forEach((u) => m.apply(u));
  assert.deepEqual(m.entries.map((e) => e.kind), ['user', 'thought', 'agent', 'tool', 'plan', 'note']);
  assert.equal((m.entries[1] as { text: string }).text, 'Let me look.');
  assert.equal((m.entries[2] as { text: string }).text, 'Reading main.go.');
  const tool = m.entries[3] as { tool: { status: string; title: string } };
  assert.equal(tool.tool.status, 'completed');
  assert.equal(tool.tool.title, 'Read main.go', 'an update without a title keeps the old one');
  assert.equal((m.entries[4] as { entries: unknown[] }).entries.length, 2);
  assert.equal(m.mode, 'auto-edit');
});

test('chat: rendering escapes everything the model wrote', () => {
  const m = new ChatModel();
  m.apply({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: '<script>alert(1)</script>' } });
  m.apply({ sessionUpdate: 'tool_call', toolCallId: 'x', title: 'Edit <b>', status: 'failed',
    content: [{ type: 'diff', path: 'a&b.ts', oldText: null, newText: 'x' }] });
  const html = renderBody(m);
  assert.ok(!html.includes('<script>'), html);
  assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'), html);
  assert.ok(html.includes('Edit &lt;b&gt;') && html.includes('new file a&amp;b.ts'), html);
  assert.ok(html.includes('class="tool failed"'), html);
  assert.equal(escapeHtml('"&'), '&quot;&amp;');
});

test('permission: the modal offers every option and maps the click back', async () => {
  for (const [click, want] of [
    ['Always allow', { outcome: 'selected', optionId: 'allow_always' }],
    ['Reject', { outcome: 'selected', optionId: 'reject_once' }],
    [undefined, { outcome: 'selected', optionId: 'reject_once' }], // dismissed
  ] as const) {
    recorded.modals.length = 0;
    setAnswer(click);
    const got = await askPermission(vscodeMock.window as never, editRequest);
    assert.deepEqual(got.outcome, want, `click ${click}`);
    assert.equal(recorded.modals.length, 1);
    const modal = recorded.modals[0];
    assert.deepEqual(modal.items, ['Allow', 'Always allow', 'Reject', 'Always reject']);
    assert.deepEqual(modal.options, { modal: true, detail: '/w/main.go' });
    assert.equal(modal.message, 'tandem wants to: Edit main.go');
  }
});

test('permission: without a reject option a dismissed modal cancels', async () => {
  setAnswer(undefined);
  const got = await askPermission(vscodeMock.window as never, { ...editRequest, options: options.slice(0, 2) });
  assert.deepEqual(got, { outcome: { outcome: 'cancelled' } });
  assert.equal(describe({ ...editRequest, toolCall: { toolCallId: 'y', kind: 'execute' } }).message, 'tandem wants to: execute');
});

test('status bar: spinner with the current tool while a prompt runs', () => {
  const item = vscodeMock.window.createStatusBarItem();
  const s = new ProgressStatus(item);
  assert.equal(item.text, idleText);
  s.handle('tandem-1', { kind: 'begin', title: 'tandem', message: 'thinking' });
  assert.equal(item.text, '$(sync~spin) tandem: thinking');
  s.handle('tandem-1', { kind: 'report', message: 'Edit main.go' });
  assert.equal(item.text, '$(sync~spin) tandem: Edit main.go');
  s.handle('tandem-1', { kind: 'end', message: 'end_turn' });
  assert.equal(item.text, idleText);
  assert.match(String(item.tooltip), /end_turn/);
});

test('chat view: renders into the webview and posts re-renders', async () => {
  const posted: { html: string }[] = [];
  const webview = { options: {}, html: '', postMessage: async (m: { html: string }) => { posted.push(m); return true; } };
  const model = new ChatModel();
  model.user('hello');
  const view = new ChatView(model);
  view.resolveWebviewView({ webview, show() {} } as never);
  assert.match(webview.html, /Content-Security-Policy/);
  assert.match(webview.html, /<p>hello<\/p>/);
  model.apply({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi there' } });
  view.refresh();
  assert.equal(posted.length, 1);
  assert.match(posted[0].html, /hi there/);
  recorded.commands.length = 0;
  new ChatView(model).reveal();
  assert.deepEqual(recorded.commands, ['tandem.chat.focus']);
});
