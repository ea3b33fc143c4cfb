// Inline completions (ghost text) and next-edit suggestions from tandem.
// vscode-languageclient 9 predates LSP 3.18's inline completions, so the
// provider here forwards VS Code's requests to the server's
// textDocument/inlineCompletion itself. A next edit (tandem/nextEdit) is
// shown as decorations: the replaced text struck through and the new
// text after it, like ghost text (an insertion is only that); accepting applies it as an ordinary edit (undo reverts
// it), rejecting clears it.
import * as vscode from 'vscode';
import { LanguageClient } from 'vscode-languageclient/node';
import { Method, NextEditResult, NextEditSuggestion, Range as WireRange } from './protocol';

interface WireItem { insertText: string | { value: string }; range?: WireRange }

// registerInlineCompletions serves ghost text when the server offers it.
export function registerInlineCompletions(lc: LanguageClient): vscode.Disposable | undefined {
  if (!lc.initializeResult?.capabilities || !(lc.initializeResult.capabilities as { inlineCompletionProvider?: unknown }).inlineCompletionProvider) {
    return undefined;
  }
  const provider: vscode.InlineCompletionItemProvider = {
    async provideInlineCompletionItems(doc, pos, context, token) {
      const params = {
        textDocument: { uri: lc.code2ProtocolConverter.asUri(doc.uri) },
        position: lc.code2ProtocolConverter.asPosition(pos),
        context: {
          triggerKind: context.triggerKind === vscode.InlineCompletionTriggerKind.Invoke ? 1 : 2,
          selectedCompletionInfo: context.selectedCompletionInfo && {
            range: lc.code2ProtocolConverter.asRange(context.selectedCompletionInfo.range),
            text: context.selectedCompletionInfo.text,
          },
        },
      };
      let res: WireItem[] | { items: WireItem[] } | null;
      try {
        res = await lc.sendRequest<WireItem[] | { items: WireItem[] } | null>('textDocument/inlineCompletion', params, token);
      } catch {
        return [];
      }
      const items = Array.isArray(res) ? res : res?.items ?? [];
      return items.map((it) => new vscode.InlineCompletionItem(
        typeof it.insertText === 'string' ? it.insertText : new vscode.SnippetString(it.insertText.value),
        it.range && lc.protocol2CodeConverter.asRange(it.range),
      ));
    },
  };
  return vscode.languages.registerInlineCompletionItemProvider({ scheme: 'file' }, provider);
}

// NextEdit holds the suggestion on screen, at most one.
export class NextEdit implements vscode.Disposable {
  static readonly context = 'tandem.nextEditVisible';
  private readonly removed = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor('diffEditor.removedTextBackground'),
    textDecoration: 'line-through',
  });
  private readonly added = vscode.window.createTextEditorDecorationType({
    after: { color: new vscode.ThemeColor('editorGhostText.foreground'), fontStyle: 'italic' },
  });
  private shown: { uri: vscode.Uri; edits: vscode.TextEdit[] } | undefined;

  constructor(private readonly lc: LanguageClient) {}

  // suggest asks for the edit that follows the user's last ones at the
  // cursor of the active editor, and shows it.
  async suggest(): Promise<boolean> {
    const ed = vscode.window.activeTextEditor;
    if (!ed) return false;
    const res = await this.lc.sendRequest<NextEditResult>(Method.nextEdit, {
      textDocument: { uri: this.lc.code2ProtocolConverter.asUri(ed.document.uri) },
      position: this.lc.code2ProtocolConverter.asPosition(ed.selection.active),
    });
    const sg = res.suggestions[0];
    if (!sg) {
      void vscode.window.setStatusBarMessage('tandem: no next edit to suggest', 3000);
      return false;
    }
    await this.show(sg);
    return true;
  }

  private async show(sg: NextEditSuggestion): Promise<void> {
    this.clear();
    const uri = this.lc.protocol2CodeConverter.asUri(sg.uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    const ed = await vscode.window.showTextDocument(doc, { preserveFocus: false });
    const edits = sg.edits.map((e) => new vscode.TextEdit(this.lc.protocol2CodeConverter.asRange(e.range), e.newText));
    this.shown = { uri, edits };
    ed.setDecorations(this.removed, edits.filter((e) => !e.range.isEmpty).map((e) => e.range));
    ed.setDecorations(this.added, edits.map((e) => ({
      range: new vscode.Range(e.range.end, e.range.end),
      renderOptions: { after: { contentText: e.newText.replace(/\r?\n/g, ' ⏎ ') } },
    })));
    if (edits[0]) ed.revealRange(edits[0].range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    await vscode.commands.executeCommand('setContext', NextEdit.context, true);
  }

  // accept applies the shown suggestion as one edit.
  async accept(): Promise<boolean> {
    const s = this.shown;
    this.clear();
    if (!s) return false;
    const we = new vscode.WorkspaceEdit();
    we.set(s.uri, s.edits);
    return vscode.workspace.applyEdit(we);
  }

  clear(): void {
    this.shown = undefined;
    for (const ed of vscode.window.visibleTextEditors) {
      ed.setDecorations(this.removed, []);
      ed.setDecorations(this.added, []);
    }
    void vscode.commands.executeCommand('setContext', NextEdit.context, false);
  }

  dispose(): void {
    this.clear();
    this.removed.dispose();
    this.added.dispose();
  }
}
