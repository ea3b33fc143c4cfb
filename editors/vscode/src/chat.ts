// The chat's model and its HTML: a list of entries built from the
// tandem/update stream. Pure (no vscode), so it is unit-tested directly;
// chatView.ts puts the HTML in a webview.
import { PlanEntry, SessionUpdate, ToolCallFields } from './protocol';

export type Entry =
  | { kind: 'user' | 'agent' | 'thought' | 'note'; text: string }
  | { kind: 'tool'; tool: ToolCallFields }
  | { kind: 'plan'; entries: PlanEntry[] };

export class ChatModel {
  readonly entries: Entry[] = [];
  mode = '';
  private tools = new Map<string, ToolCallFields>();

  user(text: string): void {
    this.entries.push({ kind: 'user', text });
  }

  note(text: string): void {
    this.entries.push({ kind: 'note', text });
  }

  // apply folds one session/update into the entries.
  apply(u: SessionUpdate): void {
    switch (u.sessionUpdate) {
      case 'agent_message_chunk':
      case 'agent_thought_chunk':
      case 'user_message_chunk': {
        const kind = u.sessionUpdate === 'agent_message_chunk' ? 'agent' : u.sessionUpdate === 'agent_thought_chunk' ? 'thought' : 'user';
        const text = u.content?.text ?? '';
        const last = this.entries[this.entries.length - 1];
        if (last && last.kind === kind) {
          last.text += text;
        } else {
          this.entries.push({ kind, text });
        }
        return;
      }
      case 'tool_call':
      case 'tool_call_update': {
        const { sessionUpdate: _, ...fields } = u;
        const known = this.tools.get(u.toolCallId);
        if (known) {
          // Absent fields mean "unchanged" in a tool_call_update.
          for (const [k, v] of Object.entries(fields)) {
            if (v !== undefined && v !== null) (known as unknown as Record<string, unknown>)[k] = v;
          }
          return;
        }
        const tool: ToolCallFields = { ...fields };
        this.tools.set(u.toolCallId, tool);
        this.entries.push({ kind: 'tool', tool });
        return;
      }
      case 'plan': {
        const last = this.entries[this.entries.length - 1];
        if (last && last.kind === 'plan') {
          last.entries = u.entries;
        } else {
          this.entries.push({ kind: 'plan', entries: u.entries });
        }
        return;
      }
      case 'current_mode_update':
        this.mode = u.currentModeId;
        this.note(`mode: ${u.currentModeId}`);
        return;
    }
  }
}

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const statusIcon: Record<string, string> = { pending: '○', in_progress: '◐', completed: '●', failed: '✕' };

function toolHtml(t: ToolCallFields): string {
  const status = t.status ?? 'pending';
  const diffs = (t.content ?? [])
    .filter((c) => c.type === 'diff' && c.path)
    .map((c) => `<div class="diff">${c.oldText == null ? 'new file' : 'edit'} ${escapeHtml(c.path!)}</div>`)
    .join('');
  const texts = (t.content ?? [])
    .filter((c) => c.type === 'content' && c.content?.text)
    .map((c) => `<pre>${escapeHtml(c.content!.text!)}</pre>`)
    .join('');
  return `<div class="tool ${status}"><span class="icon">${statusIcon[status] ?? '?'}</span> ` +
    `${escapeHtml(t.title ?? t.kind ?? 'tool')} <span class="status">${status}</span>${diffs}${texts}</div>`;
}

// renderBody is the chat as HTML, every piece of text escaped.
export function renderBody(model: ChatModel): string {
  return model.entries.map((e) => {
    switch (e.kind) {
      case 'user': return `<div class="user"><b>You</b><p>${escapeHtml(e.text)}</p></div>`;
      case 'agent': return `<div class="agent"><p>${escapeHtml(e.text)}</p></div>`;
      case 'thought': return `<div class="thought"><p>${escapeHtml(e.text)}</p></div>`;
      case 'note': return `<div class="note">${escapeHtml(e.text)}</div>`;
      case 'tool': return toolHtml(e.tool);
      case 'plan': return `<div class="plan"><b>Plan</b><ul>${e.entries
        .map((p) => `<li class="${escapeHtml(p.status)}">${escapeHtml(p.content)}</li>`).join('')}</ul></div>`;
    }
  }).join('\n');
}
