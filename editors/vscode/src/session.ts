// The conversation with `tandem lsp`: which session the chat shows, the
// running turn, and what the chat view, the commands and the status bar
// ask of it. The language client carries everything; edits need no code
// here (the server sends workspace/applyEdit and the client applies it
// through VS Code, into the editor's undo history).
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { ChatModel } from './chat';
import { ChatView, ViewMessage } from './chatView';
import { Diffs } from './diffs';
import { Permissions } from './permission';
import {
  ConfigOption, ConfigOptionsResult, ListSessionsResult, LoadSessionResult, Method, ModeInfo, NewSessionResult, PromptParams, PromptResult,
  UpdateParams,
} from './protocol';
import { Status } from './status';
import { sessionItems } from './sessionList';

export class Conversation {
  private sessionId?: string;
  private running = false;
  private modes: ModeInfo[] = [];
  private models?: ConfigOption; // the "model" selector
  readonly permissions: Permissions;

  constructor(
    private readonly lc: LanguageClient,
    private readonly view: ChatView,
    private readonly status: Status,
    private readonly diffs: Diffs,
  ) {
    this.permissions = new Permissions(() => this.view.model, (d) => {
      this.status.approval(d);
      this.view.refresh();
      if (d > 0) void this.view.reveal();
    });
  }

  // update applies a tandem/update to the chat when it is this session's.
  update(p: UpdateParams): void {
    if (this.sessionId === undefined) {
      // A light-bulb action (tandem.lsp.ask/fix) started the first
      // session: the chat shows it.
      this.sessionId = p.sessionId;
      this.view.model = new ChatModel();
      void this.view.reveal();
    }
    if (p.sessionId !== this.sessionId) return;
    const u = p.update;
    if (u.sessionUpdate === 'usage_update') {
      this.status.setUsage(u);
      return;
    }
    this.view.model.apply(u);
    if (u.sessionUpdate === 'current_mode_update') this.setModeShown(u.currentModeId);
    this.view.refresh();
  }

  private setModeShown(mode: string): void {
    this.status.mode = mode;
    this.status.render();
    this.view.setState({ mode, modes: this.modes });
  }

  private folder(): string | undefined {
    return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  }

  async newSession(mode?: string): Promise<string> {
    const res = await this.lc.sendRequest<NewSessionResult>(Method.newSession, {
      cwd: this.folder(),
      mode: mode ?? vscode.workspace.getConfiguration('tandem').get<string>('mode'),
    });
    this.show(res.sessionId, res.modes);
    await this.loadModels(res.sessionId);
    this.view.model.note(`New session (${res.modes.currentModeId} mode).`);
    this.view.refresh();
    return res.sessionId;
  }

  private show(id: string, modes: NewSessionResult['modes']): void {
    this.permissions.cancelAll();
    this.sessionId = id;
    this.view.model = new ChatModel();
    this.view.model.mode = modes.currentModeId;
    this.modes = modes.availableModes;
    this.status.setUsage(undefined);
    this.setModeShown(modes.currentModeId);
  }

  async prompt(text: string): Promise<void> {
    if (this.running) {
      void vscode.window.showWarningMessage('tandem is still working on the last message; cancel it first.');
      return;
    }
    this.running = true;
    this.view.setState({ running: true, text: 'Working…' });
    try {
      const id = this.sessionId ?? (await this.newSession());
      const params: PromptParams = { sessionId: id, prompt: [{ type: 'text', text }] };
      const editor = vscode.window.activeTextEditor;
      if (editor && !editor.selection.isEmpty) {
        params.context = [{
          uri: this.lc.code2ProtocolConverter.asUri(editor.document.uri),
          range: this.lc.code2ProtocolConverter.asRange(editor.selection),
        }];
      }
      this.view.model.user(text);
      this.view.refresh();
      const res = await this.lc.sendRequest<PromptResult>(Method.prompt, params);
      if (res.stopReason === 'cancelled') this.view.model.note('Cancelled.');
      else if (res.stopReason !== 'end_turn') this.view.model.note(`Stopped: ${res.stopReason.replace(/_/g, ' ')}.`);
    } catch (err) {
      this.view.model.note(`Error: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      this.running = false;
      this.permissions.cancelAll();
      this.view.setState({ running: false, text: '' });
      this.view.refresh();
    }
  }

  // lightBulb shows a code action's prompt (tandem.lsp.ask or .fix, run
  // by the language client) in the chat as the user's message.
  lightBulb(command: string, args: unknown[]): void {
    const a = args[0] as { uri?: string; range?: { start: { line: number }; end: { line: number } } } | undefined;
    const what = command.endsWith('.fix') ? 'Fix with tandem' : 'Ask tandem about this';
    const file = a?.uri ? decodeURIComponent(a.uri.split('/').pop() ?? '') : '';
    const lines = a?.range ? `, lines ${a.range.start.line + 1}–${a.range.end.line + 1}` : '';
    this.view.model.user(`${what}: ${file}${lines}`);
    this.view.refresh();
    void this.view.reveal();
  }

  cancel(): void {
    if (!this.sessionId || !this.running) return;
    this.permissions.cancelAll();
    void this.lc.sendNotification(Method.cancel, { sessionId: this.sessionId });
  }

  async setMode(mode?: string): Promise<void> {
    mode ??= (await vscode.window.showQuickPick(
      (this.modes.length ? this.modes : [{ id: 'ask', name: 'ask' }, { id: 'code', name: 'code' }, { id: 'auto-edit', name: 'auto-edit' }, { id: 'full-auto', name: 'full-auto' }])
        .map((m) => ({ label: m.id, description: (m as ModeInfo).description })),
      { placeHolder: 'tandem mode' }))?.label;
    if (!mode) return;
    if (!this.sessionId) {
      await this.newSession(mode);
      return;
    }
    await this.lc.sendRequest(Method.setMode, { sessionId: this.sessionId, modeId: mode });
    this.setModeShown(mode);
  }

  private async loadModels(id: string): Promise<void> {
    this.setModelShown(await this.lc.sendRequest<ConfigOptionsResult>(Method.configOptions, { sessionId: id }));
  }

  private setModelShown(res: ConfigOptionsResult): void {
    this.models = res.configOptions.find((o) => o.id === 'model');
    this.view.setState({ model: this.models?.currentValue });
  }

  // setModel switches the session's model among those the server offers.
  async setModel(): Promise<void> {
    const id = this.sessionId ?? (await this.newSession());
    const cur = this.models?.currentValue;
    const pick = await vscode.window.showQuickPick(
      (this.models?.options ?? []).map((m) => ({
        label: m.name, description: m.value === cur ? 'current' : m.value !== m.name ? m.value : undefined, id: m.value,
      })),
      { placeHolder: 'Model for this session' });
    if (!pick || pick.id === cur) return;
    this.setModelShown(await this.lc.sendRequest<ConfigOptionsResult>(Method.setModel, { sessionId: id, modelId: pick.id }));
    this.view.model.note(`Model: ${this.models?.currentValue ?? pick.id}`);
    this.view.refresh();
  }

  async openSession(): Promise<void> {
    const res = await this.lc.sendRequest<ListSessionsResult>(Method.listSessions, { cwd: this.folder() });
    // The session on screen is not offered again.
    const items = sessionItems(res.sessions.filter((s) => s.sessionId !== this.sessionId), new Date());
    if (items.length === 0) {
      void vscode.window.showInformationMessage('tandem has no earlier sessions for this folder.');
      return;
    }
    const pick = await vscode.window.showQuickPick(items, { placeHolder: 'Open a tandem session', matchOnDetail: true });
    if (!pick) return;
    if (this.running) this.cancel();
    const s = pick.session;
    // Updates replayed by loadSession arrive before its answer: the chat
    // must already be this session's.
    this.show(s.sessionId, { currentModeId: s.mode ?? '', availableModes: this.modes });
    this.view.refresh();
    const loaded = await this.lc.sendRequest<LoadSessionResult>(Method.loadSession, { sessionId: s.sessionId, cwd: s.cwd });
    this.modes = loaded.modes.availableModes;
    await this.loadModels(s.sessionId);
    this.setModeShown(loaded.modes.currentModeId);
    this.view.model.note('Session reopened; continue below.');
    this.view.refresh();
    await this.view.reveal(true);
  }

  // fromView acts on a message from the chat view.
  fromView(m: ViewMessage): void {
    const run = (p: Promise<unknown>) => p.catch((err) => vscode.window.showErrorMessage(`tandem: ${err instanceof Error ? err.message : String(err)}`));
    switch (m.action) {
      case 'prompt': if (m.text) void run(this.prompt(m.text)); return;
      case 'cancel': this.cancel(); return;
      case 'setMode': if (m.mode) void run(this.setMode(m.mode)); return;
      case 'setModel': void run(this.setModel()); return;
      case 'newSession': if (!this.running) void run(this.newSession()); return;
      case 'openSession': void run(this.openSession()); return;
      case 'permission': if (m.id !== undefined && m.option) this.permissions.answer(m.id, m.option); this.view.refresh(); return;
      case 'diff': {
        const c = m.tool ? this.view.model.tool(m.tool)?.content?.[m.index ?? -1] : undefined;
        const p = c ?? this.permissionDiff(m.tool, m.index);
        if (p?.type === 'diff' && p.path) void run(this.diffs.open(p.path, p.oldText, p.newText ?? ''));
        return;
      }
    }
  }

  // permissionDiff finds a diff shown in a permission prompt whose tool
  // call has not (yet) reached the chat as a tool call entry.
  private permissionDiff(tool?: string, index?: number) {
    for (const e of this.view.model.entries) {
      if (e.kind === 'permission' && e.permission.tool.toolCallId === tool) return e.permission.tool.content?.[index ?? -1];
    }
    return undefined;
  }
}
