// Entry point: starts `tandem lsp` through vscode-languageclient and wires
// tandem's methods to VS Code: the chat view, inline permission prompts,
// the diff editor, the status bar. The commands registered here are the
// extension's own tandem.* ids; the server's executeCommand ids live under
// tandem.lsp.*, which the language client registers itself.
import * as vscode from 'vscode';
import {
  FeatureState, LanguageClient, LanguageClientOptions, ServerOptions, StaticFeature,
  WorkDoneProgress, WorkDoneProgressCreateRequest,
} from 'vscode-languageclient/node';
import { serverCommand } from './binary';
import { ChatModel } from './chat';
import { ChatView } from './chatView';
import { Diffs } from './diffs';
import { experimentalCapabilities, Method, RequestPermissionParams, UpdateParams } from './protocol';
import { Conversation } from './session';
import { ProgressValue, Status } from './status';
import { NextEdit, registerInlineCompletions } from './suggest';

// Declares experimental.tandem: permissions through tandem/requestPermission
// with ACP's options, and where edits are reviewed.
class TandemCapabilities implements StaticFeature {
  constructor(private readonly previewEdits: boolean) {}
  fillClientCapabilities(caps: { experimental?: object }): void {
    caps.experimental = { ...(caps.experimental ?? {}), ...experimentalCapabilities(this.previewEdits) };
  }
  initialize(): void {}
  getState(): FeatureState { return { kind: 'static' }; }
  clear(): void {}
}

let client: LanguageClient | undefined;

export async function activate(ctx: vscode.ExtensionContext): Promise<void> {
  const cfg = vscode.workspace.getConfiguration('tandem');
  let conv: Conversation | undefined; // set once the chat view exists, below
  const serverOptions: ServerOptions = {
    command: serverCommand(userPath(cfg), ctx.extensionPath),
    args: ['lsp'],
    options: { env: { ...process.env, ...cfg.get<Record<string, string>>('env', {}) } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ scheme: 'file' }, { scheme: 'untitled' }],
    outputChannelName: 'tandem',
    middleware: {
      // The light bulb's tandem.lsp.* commands run a prompt on the server;
      // the chat shows it like one typed there.
      executeCommand: (command, args, next) => {
        if (command.startsWith('tandem.lsp.')) conv?.lightBulb(command, args);
        return next(command, args);
      },
    },
  };
  const lc = new LanguageClient('tandem', 'tandem', serverOptions, clientOptions);
  client = lc;
  lc.registerFeature(new TandemCapabilities(cfg.get<string>('reviewEdits') === 'preview'));

  const item = vscode.window.createStatusBarItem('tandem.status', vscode.StatusBarAlignment.Left, 10);
  item.name = 'tandem';
  item.command = 'tandem.ask';
  ctx.subscriptions.push(item);
  const status = new Status(item);
  const diffs = new Diffs();
  ctx.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(Diffs.scheme, diffs));

  const view = new ChatView(new ChatModel(), ctx.extensionUri, (m) => conv?.fromView(m));
  ctx.subscriptions.push(vscode.window.registerWebviewViewProvider(ChatView.id, view, { webviewOptions: { retainContextWhenHidden: true } }));
  conv = new Conversation(lc, view, status, diffs);
  const c = conv;

  // Commands exist before the server starts, so a failed start still
  // leaves them to report what is wrong.
  const started = lc.start();
  const ready = async () => { await started; return c; };
  const guard = (f: (c: Conversation) => Promise<unknown> | unknown) => async () => {
    try {
      await f(await ready());
    } catch (err) {
      void vscode.window.showErrorMessage(`tandem: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  ctx.subscriptions.push(
    vscode.commands.registerCommand('tandem.ask', () => view.reveal(true)),
    vscode.commands.registerCommand('tandem.newSession', guard(async (c) => { await c.newSession(); await view.reveal(true); })),
    vscode.commands.registerCommand('tandem.openSession', guard((c) => c.openSession())),
    vscode.commands.registerCommand('tandem.cancel', guard((c) => c.cancel())),
    vscode.commands.registerCommand('tandem.setMode', guard((c) => c.setMode())),
    vscode.commands.registerCommand('tandem.setModel', guard((c) => c.setModel())),
  );
  const nextEdit = new NextEdit(lc);
  ctx.subscriptions.push(
    nextEdit,
    vscode.commands.registerCommand('tandem.nextEdit', guard(() => nextEdit.suggest())),
    vscode.commands.registerCommand('tandem.acceptNextEdit', guard(() => nextEdit.accept())),
    vscode.commands.registerCommand('tandem.rejectNextEdit', () => nextEdit.clear()),
  );

  lc.onNotification(Method.update, (p: UpdateParams) => c.update(p));
  lc.onRequest(Method.requestPermission, (p: RequestPermissionParams) => c.permissions.request(p));
  try {
    await started;
  } catch (err) {
    const open = 'Open Settings';
    const msg = `tandem could not start \`${serverOptions.command} lsp\`: ${err instanceof Error ? err.message : String(err)}. Install tandem on PATH or set tandem.path to the tandem binary.`;
    void vscode.window.showErrorMessage(msg, open).then((a) => {
      if (a === open) void vscode.commands.executeCommand('workbench.action.openSettings', 'tandem.path');
    });
    return;
  }
  const inline = registerInlineCompletions(lc);
  if (inline) ctx.subscriptions.push(inline);
  // The status bar item shows progress instead of a notification.
  lc.onRequest(WorkDoneProgressCreateRequest.type, ({ token }) => {
    const sub = lc.onProgress(WorkDoneProgress.type, token, (v) => {
      status.progress(String(token), v as ProgressValue);
      if (v.kind === 'end') sub.dispose();
    });
  });
  view.setState({ text: '', running: false });
}

// userPath is tandem.path when the user (or workspace) set it, not the
// default, so that a bundled binary is used unless they chose another.
function userPath(cfg: vscode.WorkspaceConfiguration): string | undefined {
  const i = cfg.inspect<string>('path');
  return i?.workspaceFolderValue ?? i?.workspaceValue ?? i?.globalValue;
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
