// Entry point: starts `tandem lsp` through vscode-languageclient and wires
// tandem's custom methods to VS Code: the chat view, the permission modal,
// the status bar. Edits need no code here: the server sends
// workspace/applyEdit and the client applies it with VS Code's own
// workspace.applyEdit (annotated edits open the refactor preview).
import * as vscode from 'vscode';
import {
  LanguageClient, LanguageClientOptions, ServerOptions, StaticFeature, FeatureState,
  WorkDoneProgress, WorkDoneProgressCreateRequest,
} from 'vscode-languageclient/node';
import { ChatModel } from './chat';
import { ChatView } from './chatView';
import { askPermission } from './permission';
import {
  experimentalCapabilities, Method, NewSessionResult, PromptParams, PromptResult,
  RequestPermissionParams, UpdateParams,
} from './protocol';
import { ProgressStatus, ProgressValue } from './status';

// Declares experimental.tandem.permissions so the server asks through
// tandem/requestPermission with ACP's four options.
class TandemCapabilities implements StaticFeature {
  fillClientCapabilities(caps: { experimental?: object }): void {
    caps.experimental = { ...(caps.experimental ?? {}), ...experimentalCapabilities };
  }
  initialize(): void {}
  getState(): FeatureState { return { kind: 'static' }; }
  clear(): void {}
}

let client: LanguageClient | undefined;

export async function activate(ctx: vscode.ExtensionContext): Promise<void> {
  const cfg = vscode.workspace.getConfiguration('tandem');
  const serverOptions: ServerOptions = {
    command: cfg.get<string>('path', 'tandem'),
    args: ['lsp'],
    options: { env: { ...process.env, ...cfg.get<Record<string, string>>('env', {}) } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ scheme: 'file' }, { scheme: 'untitled' }],
    outputChannelName: 'tandem',
  };
  const lc = new LanguageClient('tandem', 'tandem', serverOptions, clientOptions);
  client = lc;
  lc.registerFeature(new TandemCapabilities());

  const chat = new ChatView(new ChatModel());
  ctx.subscriptions.push(vscode.window.registerWebviewViewProvider(ChatView.id, chat));
  const item = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 10);
  item.command = 'tandem.ask';
  ctx.subscriptions.push(item);
  const status = new ProgressStatus(item);

  let sessionId: string | undefined;
  let running = false;

  lc.onNotification(Method.update, (p: UpdateParams) => {
    if (p.sessionId !== sessionId) return;
    chat.model.apply(p.update);
    chat.refresh();
  });
  lc.onRequest(Method.requestPermission, (p: RequestPermissionParams) => askPermission(vscode.window, p));

  await lc.start();

  // Replace the default progress notification by the status bar item.
  lc.onRequest(WorkDoneProgressCreateRequest.type, ({ token }) => {
    const sub = lc.onProgress(WorkDoneProgress.type, token, (v) => {
      status.handle(String(token), v as ProgressValue);
      if (v.kind === 'end') sub.dispose();
    });
  });

  async function newSession(mode?: string): Promise<string> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    const res = await lc.sendRequest<NewSessionResult>(Method.newSession, {
      cwd: folder?.uri.fsPath,
      mode: mode ?? vscode.workspace.getConfiguration('tandem').get<string>('mode'),
    });
    sessionId = res.sessionId;
    chat.model = new ChatModel();
    chat.model.mode = res.modes.currentModeId;
    chat.model.note(`session ${res.sessionId} (${res.modes.currentModeId})`);
    chat.refresh();
    return res.sessionId;
  }

  async function ask(): Promise<void> {
    if (running) {
      void vscode.window.showWarningMessage('tandem is still working; run "Tandem: Cancel" to stop it.');
      return;
    }
    const text = await vscode.window.showInputBox({ prompt: 'Ask tandem', placeHolder: 'Explain, fix, refactor…' });
    if (!text) return;
    const id = sessionId ?? (await newSession());
    const params: PromptParams = { sessionId: id, prompt: [{ type: 'text', text }] };
    const editor = vscode.window.activeTextEditor;
    if (editor && !editor.selection.isEmpty) {
      params.context = [{
        uri: lc.code2ProtocolConverter.asUri(editor.document.uri),
        range: lc.code2ProtocolConverter.asRange(editor.selection),
      }];
    }
    chat.model.user(text);
    chat.refresh();
    chat.reveal();
    running = true;
    try {
      const res = await lc.sendRequest<PromptResult>(Method.prompt, params);
      chat.model.note(`done (${res.stopReason})`);
    } catch (err) {
      chat.model.note(`error: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      running = false;
      chat.refresh();
    }
  }

  ctx.subscriptions.push(
    vscode.commands.registerCommand('tandem.ask', ask),
    vscode.commands.registerCommand('tandem.newSession', async () => { await newSession(); chat.reveal(); }),
    vscode.commands.registerCommand('tandem.cancel', () => {
      if (sessionId) void lc.sendNotification(Method.cancel, { sessionId });
    }),
    vscode.commands.registerCommand('tandem.setMode', async () => {
      const mode = await vscode.window.showQuickPick(['ask', 'code', 'auto-edit', 'full-auto'], { placeHolder: 'tandem mode' });
      if (!mode) return;
      const id = sessionId ?? (await newSession(mode));
      await lc.sendRequest(Method.setMode, { sessionId: id, modeId: mode });
    }),
  );
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
