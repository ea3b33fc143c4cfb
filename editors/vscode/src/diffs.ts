// Opens a tool call's change in VS Code's diff editor: the old and new
// texts are served read-only under the tandem-diff: scheme.
import * as vscode from 'vscode';

export class Diffs implements vscode.TextDocumentContentProvider {
  static readonly scheme = 'tandem-diff';
  private texts = new Map<string, string>();
  private seq = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.query) ?? '';
  }

  private uri(path: string, text: string): vscode.Uri {
    const key = String(++this.seq);
    this.texts.set(key, text);
    return vscode.Uri.from({ scheme: Diffs.scheme, path, query: key });
  }

  async open(path: string, oldText: string | null | undefined, newText: string): Promise<void> {
    const name = path.split(/[\\/]/).pop() || path;
    const title = `${name} (${oldText == null ? 'new file' : 'proposed edit'})`;
    await vscode.commands.executeCommand('vscode.diff', this.uri(path, oldText ?? ''), this.uri(path, newText), title, { preview: true });
  }
}
