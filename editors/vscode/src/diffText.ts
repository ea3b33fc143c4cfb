// unifiedDiff renders one file's change as escaped HTML lines of a unified
// diff (added and removed lines in spans the view colours), for the
// permission prompt: the user approves exactly what will be written.
import { structuredPatch } from 'diff';
import { escapeHtml } from './markdown';

export function unifiedDiff(path: string, oldText: string | null, newText: string): string {
  const name = path.split(/[\\/]/).pop() || path;
  const patch = structuredPatch(name, name, oldText ?? '', newText, '', '', { context: 3 });
  const lines = [`<span class="hdr">${oldText == null ? 'new file ' : ''}${escapeHtml(name)}</span>`];
  for (const h of patch.hunks) {
    lines.push(`<span class="hunk">@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@</span>`);
    for (const l of h.lines) {
      const cls = l[0] === '+' ? 'add' : l[0] === '-' ? 'del' : 'ctx';
      if (l.startsWith('\\')) continue; // "\ No newline at end of file"
      lines.push(`<span class="${cls}">${escapeHtml(l)}</span>`);
    }
  }
  return lines.join('\n');
}
