// The session picker's items: each earlier session by its title (never
// its raw id), when it was last used, and its mode. Pure, unit-tested.
import { SessionInfo } from './protocol';
import { plural } from './markdown';

export interface SessionItem { label: string; description: string; detail?: string; session: SessionInfo }

// ago is "just now", "5 minutes ago", "1 day ago".
export function ago(then: Date, now: Date): string {
  const s = Math.max(0, Math.round((now.getTime() - then.getTime()) / 1000));
  if (s < 60) return 'just now';
  for (const [unit, secs] of [['day', 86400], ['hour', 3600], ['minute', 60]] as const) {
    if (s >= secs) return `${plural(Math.floor(s / secs), unit)} ago`;
  }
  return 'just now';
}

export function sessionItems(sessions: SessionInfo[], now: Date): SessionItem[] {
  return [...sessions]
    .sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt))
    .map((s) => ({
      label: (s.title ?? '').trim().split('\n')[0] || 'Untitled session',
      description: [ago(new Date(s.updatedAt), now), s.mode ? `${s.mode} mode` : ''].filter(Boolean).join(' · '),
      detail: s.cwd,
      session: s,
    }));
}
