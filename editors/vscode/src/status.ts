// The status bar item driven by the server's work-done progress ($/progress
// begin/report/end): idle text, or a spinner with the current tool.
import type * as vscode from 'vscode';

export type ProgressValue =
  | { kind: 'begin'; title: string; message?: string }
  | { kind: 'report'; message?: string }
  | { kind: 'end'; message?: string };

export const idleText = '$(hubot) tandem';

export class ProgressStatus {
  private active = new Map<string, string>();

  constructor(private readonly item: Pick<vscode.StatusBarItem, 'text' | 'tooltip' | 'show'>) {
    item.text = idleText;
    item.show();
  }

  // handle applies one $/progress value for token.
  handle(token: string, v: ProgressValue): void {
    switch (v.kind) {
      case 'begin':
        this.active.set(token, v.message ?? v.title);
        break;
      case 'report':
        if (v.message) this.active.set(token, v.message);
        break;
      case 'end':
        this.active.delete(token);
        if (v.message) this.item.tooltip = `tandem: last turn ended (${v.message})`;
        break;
    }
    const current = [...this.active.values()].pop();
    this.item.text = current === undefined ? idleText : `$(sync~spin) tandem: ${current}`;
  }
}
