// tandem/requestPermission answered inline in the chat: the request
// becomes a chat entry showing the exact command or diff, with one button
// per option; the click resolves the request. A request still open when
// its turn ends is answered "cancelled".
import { ChatModel, Permission } from './chat';
import { PermissionOutcome, RequestPermissionParams } from './protocol';

export class Permissions {
  private next = 1;
  private open = new Map<number, { p: Permission; resolve: (o: PermissionOutcome) => void }>();

  // onChange runs when a prompt opens or closes (delta +1 or -1).
  constructor(private readonly model: () => ChatModel, private readonly onChange: (delta: number) => void) {}

  request(params: RequestPermissionParams): Promise<PermissionOutcome> {
    const p: Permission = { id: this.next++, tool: params.toolCall, options: params.options };
    this.model().permission(p);
    this.onChange(+1);
    return new Promise((resolve) => this.open.set(p.id, { p, resolve }));
  }

  // answer resolves prompt id with optionId; false when it is not open.
  answer(id: number, optionId: string): boolean {
    const o = this.open.get(id);
    const option = o?.p.options.find((x) => x.optionId === optionId);
    if (!o || !option) return false;
    this.close(id, option.name, { outcome: { outcome: 'selected', optionId } });
    return true;
  }

  // cancelAll answers every open prompt "cancelled".
  cancelAll(): void {
    for (const id of [...this.open.keys()]) this.close(id, 'Cancelled', { outcome: { outcome: 'cancelled' } });
  }

  get pending(): number {
    return this.open.size;
  }

  private close(id: number, chosen: string, outcome: PermissionOutcome): void {
    const o = this.open.get(id)!;
    this.open.delete(id);
    o.p.chosen = chosen;
    this.onChange(-1);
    o.resolve(outcome);
  }
}
