// tandem/requestPermission answered with a modal: the tool call's title
// and files as the message, one button per option. Closing the modal
// rejects this call without ending the turn.
import type * as vscode from 'vscode';
import { PermissionOutcome, RequestPermissionParams } from './protocol';

export type ModalWindow = Pick<typeof vscode.window, 'showInformationMessage'>;

export function describe(p: RequestPermissionParams): { message: string; detail: string } {
  const t = p.toolCall;
  const files = new Set<string>();
  for (const l of t.locations ?? []) files.add(l.path);
  for (const c of t.content ?? []) if (c.type === 'diff' && c.path) files.add(c.path);
  return {
    message: `tandem wants to: ${t.title ?? t.kind ?? 'run a tool'}`,
    detail: [...files].join('\n'),
  };
}

export async function askPermission(win: ModalWindow, p: RequestPermissionParams): Promise<PermissionOutcome> {
  const { message, detail } = describe(p);
  const names = p.options.map((o) => o.name);
  const picked = await win.showInformationMessage(message, { modal: true, detail }, ...names);
  const option = p.options.find((o) => o.name === picked);
  if (option) return { outcome: { outcome: 'selected', optionId: option.optionId } };
  const reject = p.options.find((o) => o.kind === 'reject_once');
  if (reject) return { outcome: { outcome: 'selected', optionId: reject.optionId } };
  return { outcome: { outcome: 'cancelled' } };
}
