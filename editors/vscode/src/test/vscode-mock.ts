// A stand-in for the `vscode` module, which exists only inside VS Code.
// install() makes require('vscode') return it, and records what the code
// under test asked the window for.
import Module = require('module');

export interface Recorded {
  modals: { message: string; options: unknown; items: string[] }[];
  commands: string[];
}

export const recorded: Recorded = { modals: [], commands: [] };

// answer is the button the next modal "clicks" (undefined: dismissed).
export let answer: string | undefined;
export function setAnswer(a: string | undefined): void { answer = a; }

export const vscodeMock = {
  window: {
    async showInformationMessage(message: string, options: unknown, ...items: string[]) {
      recorded.modals.push({ message, options, items });
      return answer;
    },
    createStatusBarItem() {
      return { text: '', tooltip: '', show() {}, dispose() {} };
    },
  },
  commands: {
    async executeCommand(command: string) { recorded.commands.push(command); },
  },
  StatusBarAlignment: { Left: 1, Right: 2 },
};

let installed = false;

export function install(): typeof vscodeMock {
  if (installed) return vscodeMock;
  installed = true;
  const m = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const load = m._load;
  m._load = function (request: string, ...rest: unknown[]) {
    if (request === 'vscode') return vscodeMock;
    return load.call(this, request, ...rest);
  };
  return vscodeMock;
}
