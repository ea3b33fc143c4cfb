// The "Chat" webview in tandem's activity bar container. It shows the
// ChatModel's HTML and re-renders on every update; all text is escaped by
// renderBody and scripts are limited to the one inline handler by CSP.
import * as vscode from 'vscode';
import { ChatModel, renderBody } from './chat';

export class ChatView implements vscode.WebviewViewProvider {
  static readonly id = 'tandem.chat';
  private view?: vscode.WebviewView;

  constructor(public model: ChatModel) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    view.webview.options = { enableScripts: true };
    const nonce = Math.random().toString(36).slice(2);
    view.webview.html = `<!DOCTYPE html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${nonce}';">
<style>
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
.user { border-left: 2px solid var(--vscode-focusBorder); padding-left: 6px; margin: 8px 0; }
.thought { opacity: .7; font-style: italic; }
.note { opacity: .7; font-size: 90%; margin: 4px 0; }
.tool { margin: 4px 0; } .tool .status { opacity: .6; font-size: 85%; }
.tool.failed .icon { color: var(--vscode-errorForeground); }
.diff { font-family: var(--vscode-editor-font-family); margin-left: 18px; opacity: .8; }
p { white-space: pre-wrap; margin: 2px 0; }
</style></head><body><div id="chat">${renderBody(this.model)}</div>
<script nonce="${nonce}">
window.addEventListener('message', (e) => {
  document.getElementById('chat').innerHTML = e.data.html;
  window.scrollTo(0, document.body.scrollHeight);
});
</script></body></html>`;
  }

  refresh(): void {
    void this.view?.webview.postMessage({ html: renderBody(this.model) });
  }

  reveal(): void {
    if (this.view) {
      this.view.show(true);
    } else {
      void vscode.commands.executeCommand(`${ChatView.id}.focus`);
    }
  }
}
