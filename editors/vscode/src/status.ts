// The status bar item: the session's state (idle, working with the
// current step from the server's $/progress, waiting for an approval) and
// its usage (tokens in the context against the model's window, and the
// cost when the price is known, from usage_update).
import type * as vscode from 'vscode';

export type ProgressValue =
  | { kind: 'begin'; title: string; message?: string }
  | { kind: 'report'; message?: string }
  | { kind: 'end'; message?: string };

export interface Usage { used: number; size: number; cost?: { amount: number; currency: string } }

type Item = Pick<vscode.StatusBarItem, 'text' | 'tooltip' | 'show'>;

// tokens is 950, 12.3k, 200k.
export function tokens(n: number): string {
  if (n < 1000) return String(n);
  const k = n / 1000;
  return `${k < 100 ? k.toFixed(1).replace(/\.0$/, '') : Math.round(k)}k`;
}

export class Status {
  private active = new Map<string, string>();
  private usage?: Usage;
  private waiting = 0;
  mode = '';

  constructor(private readonly item: Item) {
    this.render();
    item.show();
  }

  // progress applies one $/progress value for token.
  progress(token: string, v: ProgressValue): void {
    if (v.kind === 'begin') this.active.set(token, v.message ?? v.title);
    else if (v.kind === 'report' && v.message) this.active.set(token, v.message);
    else if (v.kind === 'end') this.active.delete(token);
    this.render();
  }

  setUsage(u: Usage | undefined): void {
    this.usage = u;
    this.render();
  }

  // approval counts a permission prompt open (+1) or answered (-1).
  approval(delta: number): void {
    this.waiting = Math.max(0, this.waiting + delta);
    this.render();
  }

  get state(): string {
    if (this.waiting > 0) return 'waiting for your approval';
    const current = [...this.active.values()].pop();
    return current === undefined ? 'idle' : current;
  }

  render(): void {
    const busy = this.waiting === 0 && this.active.size > 0;
    const icon = this.waiting > 0 ? '$(bell-dot)' : busy ? '$(sync~spin)' : '$(hubot)';
    const u = this.usage;
    const used = u && u.size > 0 ? ` · ${tokens(u.used)}/${tokens(u.size)}` : '';
    this.item.text = `${icon} tandem: ${this.state}${used}`;
    const lines = [`tandem — ${this.state}`];
    if (this.mode) lines.push(`Mode: ${this.mode}`);
    if (u) lines.push(`Context: ${u.used.toLocaleString('en')} of ${u.size.toLocaleString('en')} tokens (${Math.round((100 * u.used) / Math.max(u.size, 1))}%)`);
    if (u?.cost) lines.push(`Cost so far: ${u.cost.amount.toFixed(2)} ${u.cost.currency}`);
    this.item.tooltip = lines.join('\n');
  }
}
