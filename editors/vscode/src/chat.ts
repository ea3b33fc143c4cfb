// The chat's model: a list of entries built from the tandem/update stream
// and the permission requests, and its HTML. Pure (no vscode), so it is
// unit-tested directly; chatView.ts shows the HTML in a webview.
import { PermissionOption, PlanEntry, SessionUpdate, ToolCallFields } from './protocol';
import { escapeHtml, plural, renderMarkdown } from './markdown';
import { unifiedDiff } from './diffText';

export interface Permission {
  id: number;
  tool: ToolCallFields;
  options: PermissionOption[];
  chosen?: string; // the option's name once answered, or "Cancelled"
}

export type Entry =
  | { kind: 'user' | 'agent' | 'thought' | 'note'; text: string }
  | { kind: 'tool'; tool: ToolCallFields }
  | { kind: 'plan'; entries: PlanEntry[] }
  | { kind: 'permission'; permission: Permission };

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

  permission(p: Permission): void {
    this.entries.push({ kind: 'permission', permission: p });
  }

  tool(id: string): ToolCallFields | undefined {
    return this.tools.get(id);
  }

  // apply folds one session/update into the entries.
  apply(u: SessionUpdate): void {
    switch (u.sessionUpdate) {
      case 'agent_message_chunk':
      case 'agent_thought_chunk':
      case 'user_message_chunk': {
        // A subagent's own reply would interleave with this one; its report
        // comes back as the task call's result.
        if (u._meta?.tandem?.parentToolCallId) {
          return;
        }
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
        // One plan per turn, updated in place as its steps progress.
        let last: Entry | undefined;
        for (let i = this.entries.length - 1; i >= 0 && this.entries[i].kind !== 'user'; i--) {
          if (this.entries[i].kind === 'plan') { last = this.entries[i]; break; }
        }
        if (last && last.kind === 'plan') {
          last.entries = u.entries;
        } else {
          this.entries.push({ kind: 'plan', entries: u.entries });
        }
        return;
      }
      case 'current_mode_update':
        if (this.mode !== u.currentModeId) this.note(`Mode: ${u.currentModeId}`);
        this.mode = u.currentModeId;
        return;
    }
  }
}

const statusIcon: Record<string, string> = { pending: '○', in_progress: '◐', completed: '●', failed: '✕' };
const statusText: Record<string, string> = { pending: 'pending', in_progress: 'running', completed: 'done', failed: 'failed' };

function command(t: ToolCallFields): string | undefined {
  const input = t.rawInput as { command?: unknown } | undefined;
  return typeof input?.command === 'string' ? input.command : undefined;
}

function baseName(p: string): string {
  return p.split(/[\\/]/).pop() || p;
}

// diffLinks are the tool call's files, each a link that opens VS Code's
// diff editor (the view posts {action: 'diff', tool, index}).
function diffLinks(t: ToolCallFields): string {
  return (t.content ?? []).map((c, i) => {
    if (c.type !== 'diff' || !c.path) return '';
    const what = c.oldText == null ? 'new file' : 'edit';
    return `<div class="file">${what} <a href="#" data-action="diff" data-tool="${escapeHtml(t.toolCallId)}" ` +
      `data-index="${i}" title="${escapeHtml(c.path)}">${escapeHtml(baseName(c.path))}</a></div>`;
  }).join('');
}

function toolHtml(t: ToolCallFields, planShown: boolean): string {
  const status = t.status ?? 'pending';
  const cmd = command(t);
  // update_plan's own output repeats the plan the plan entry shows.
  const texts = planShown && t.kind === 'think' ? '' : (t.content ?? [])
    .filter((c) => c.type === 'content' && c.content?.text)
    .map((c) => `<pre class="output">${escapeHtml(c.content!.text!)}</pre>`)
    .join('');
  return `<div class="tool ${status}" data-tool="${escapeHtml(t.toolCallId)}"><span class="icon">${statusIcon[status] ?? '?'}</span> ` +
    `<span class="title">${escapeHtml(t.title ?? t.kind ?? 'tool')}</span> <span class="status">${statusText[status] ?? status}</span>` +
    `${cmd ? `<pre class="command">$ ${escapeHtml(cmd)}</pre>` : ''}${diffLinks(t)}${texts}</div>`;
}

function permissionHtml(p: Permission): string {
  const t = p.tool;
  const cmd = command(t);
  const diffs = (t.content ?? []).filter((c) => c.type === 'diff' && c.path)
    .map((c) => `<pre class="diff">${unifiedDiff(c.path!, c.oldText ?? null, c.newText ?? '')}</pre>`).join('');
  const answer = p.chosen
    ? `<div class="answer">You chose: ${escapeHtml(p.chosen)}</div>`
    : `<div class="options">${p.options.map((o) =>
      `<button data-action="permission" data-id="${p.id}" data-option="${escapeHtml(o.optionId)}" class="${o.kind}">${escapeHtml(o.name)}</button>`).join('')}</div>`;
  return `<div class="permission${p.chosen ? ' answered' : ''}"><b>Allow ${escapeHtml(t.title ?? t.kind ?? 'this tool call')}?</b>` +
    `${cmd ? `<pre class="command">$ ${escapeHtml(cmd)}</pre>` : ''}${diffLinks(t)}${diffs}${answer}</div>`;
}

function planHtml(entries: PlanEntry[]): string {
  const done = entries.filter((p) => p.status === 'completed').length;
  return `<div class="plan"><b>Plan</b> <span class="status">${done} of ${plural(entries.length, 'step')} done</span><ul>${entries
    .map((p) => `<li class="${escapeHtml(p.status)}">${escapeHtml(p.content)}</li>`).join('')}</ul></div>`;
}

// renderBody is the chat as HTML, every piece of text escaped.
export function renderBody(model: ChatModel): string {
  const planShown = model.entries.some((e) => e.kind === 'plan');
  return model.entries.map((e) => {
    switch (e.kind) {
      case 'user': return `<div class="user">${renderMarkdown(e.text)}</div>`;
      case 'agent': return `<div class="agent">${renderMarkdown(e.text)}</div>`;
      case 'thought': return `<details class="thought"><summary>Thinking</summary>${renderMarkdown(e.text)}</details>`;
      case 'note': return `<div class="note">${escapeHtml(e.text)}</div>`;
      case 'tool': return toolHtml(e.tool, planShown);
      case 'plan': return planHtml(e.entries);
      case 'permission': return permissionHtml(e.permission);
    }
  }).join('\n');
}
