// The "Chat" webview in tandem's activity bar container: the toolbar (mode
// picker, model, sessions, new), the conversation, and the input box. The
// HTML of the conversation comes from chat.ts, every text escaped; the
// only script is media/chat.js, allowed by the CSP's nonce.
import * as vscode from 'vscode';
import { ChatModel, renderBody } from './chat';
import { ModeInfo } from './protocol';

// ViewMessage is what media/chat.js posts.
export interface ViewMessage {
  action: 'ready' | 'prompt' | 'cancel' | 'setMode' | 'newSession' | 'openSession' | 'setModel' | 'permission' | 'diff';
  text?: string;
  mode?: string;
  id?: number;
  option?: string;
  tool?: string;
  index?: number;
}

export interface ViewState { text: string; running: boolean; mode?: string; modes?: ModeInfo[]; model?: string }

export class ChatView implements vscode.WebviewViewProvider {
  static readonly id = 'tandem.chat';
  private view?: vscode.WebviewView;
  private timer?: NodeJS.Timeout;
  private state: ViewState = { text: '', running: false };

  constructor(
    public model: ChatModel,
    private readonly extensionUri: vscode.Uri,
    private readonly onMessage: (m: ViewMessage) => void,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    view.webview.options = { enableScripts: true, localResourceRoots: [media] };
    const nonce = Array.from({ length: 4 }, () => Math.random().toString(36).slice(2)).join('');
    const css = view.webview.asWebviewUri(vscode.Uri.joinPath(media, 'chat.css'));
    const js = view.webview.asWebviewUri(vscode.Uri.joinPath(media, 'chat.js'));
    view.webview.html = `<!DOCTYPE html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${view.webview.cspSource}; script-src 'nonce-${nonce}';">
<link rel="stylesheet" href="${css}"></head><body>
<header><select id="mode" title="Mode" aria-label="Mode"></select>
<button id="setModel" class="secondary" title="Choose the model">Model</button>
<span class="spacer"></span>
<button id="openSession" class="secondary" title="Open an earlier session">Sessions</button>
<button id="newSession" class="secondary" title="Start a new session">New</button></header>
<div id="chat" role="log"></div>
<footer><textarea id="input" rows="3" placeholder="Ask tandem…" aria-label="Message tandem"></textarea>
<div class="row"><span id="state" class="state"></span>
<button id="cancel" class="secondary" disabled>Cancel</button><button id="send">Send</button></div></footer>
<script nonce="${nonce}" src="${js}"></script></body></html>`;
    view.webview.onDidReceiveMessage((m: ViewMessage) => {
      if (m.action === 'ready') {
        this.flush();
        void view.webview.postMessage({ type: 'state', ...this.state });
      }
      this.onMessage(m);
    });
    view.onDidDispose(() => { this.view = undefined; });
  }

  // refresh re-renders soon; streamed chunks arriving together render once.
  refresh(): void {
    this.timer ??= setTimeout(() => this.flush(), 30);
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    void this.view?.webview.postMessage({ type: 'render', html: renderBody(this.model) });
  }

  setState(s: Partial<ViewState>): void {
    this.state = { ...this.state, ...s };
    void this.view?.webview.postMessage({ type: 'state', ...this.state });
  }

  // reveal shows the view (opening the container if needed) and, with
  // focus, puts the cursor in the input box.
  async reveal(focus = false, text?: string): Promise<void> {
    if (this.view) {
      this.view.show(!focus);
    } else {
      await vscode.commands.executeCommand(`${ChatView.id}.focus`);
    }
    if (focus) void this.view?.webview.postMessage({ type: 'focus', text });
  }
}
