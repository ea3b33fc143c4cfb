// The tandem/* LSP extension as the extension sees it: method names and
// the JSON shapes `tandem lsp` sends and expects. Updates are ACP
// session/update objects. Nothing here imports vscode, so the unit tests
// load it directly.

export const Method = {
  newSession: 'tandem/newSession',
  prompt: 'tandem/prompt',
  cancel: 'tandem/cancel',
  setMode: 'tandem/setMode',
  setModel: 'tandem/setModel',
  configOptions: 'tandem/configOptions',
  listSessions: 'tandem/listSessions',
  loadSession: 'tandem/loadSession',
  update: 'tandem/update',
  requestPermission: 'tandem/requestPermission',
  nextEdit: 'tandem/nextEdit',
} as const;

export interface Position { line: number; character: number }
export interface Range { start: Position; end: Position }

// NextEditSuggestion is one file's suggested edit (tandem/nextEdit).
export interface NextEditSuggestion {
  id: string;
  uri: string;
  edits: { range: Range; newText: string }[];
  cursorPosition?: Position;
}
export interface NextEditResult { suggestions: NextEditSuggestion[] }

export interface ModeInfo { id: string; name: string; description?: string }

export interface NewSessionParams { cwd?: string; mode?: string }
export interface NewSessionResult {
  sessionId: string;
  modes: { currentModeId: string; availableModes: ModeInfo[] };
}

// ConfigOption is one session selector (ids mode, model, thought_level,
// and the switches sandbox and auto_compact, marked toggle, valued on or
// off), as tandem/configOptions and tandem/setModel answer.
export interface ConfigOption {
  id: string;
  name: string;
  description?: string;
  currentValue: string;
  options: { value: string; name: string; description?: string }[];
  toggle?: boolean;
}
export interface ConfigOptionsResult { configOptions: ConfigOption[] }

export interface ContentBlock { type: string; text?: string; [key: string]: unknown }

export interface PromptParams {
  sessionId: string;
  prompt: ContentBlock[];
  context?: { uri: string; range?: Range }[];
}
export interface PromptResult { stopReason: string; usage?: { totalTokens?: number; cost?: number } }

export interface SessionInfo { sessionId: string; cwd: string; title?: string; mode?: string; updatedAt: string }
export interface ListSessionsResult { sessions: SessionInfo[] }
export interface LoadSessionResult { modes: NewSessionResult['modes'] }

export interface ToolContent {
  type: 'content' | 'diff' | 'terminal';
  content?: ContentBlock;
  path?: string;
  oldText?: string | null;
  newText?: string;
  terminalId?: string;
}

export interface ToolCallFields {
  toolCallId: string;
  title?: string;
  kind?: string;
  status?: 'pending' | 'in_progress' | 'completed' | 'failed';
  content?: ToolContent[];
  locations?: { path: string; line?: number }[];
  rawInput?: unknown;
}

export interface PlanEntry { content: string; status: string; priority?: string }

// NestMeta marks what a subagent (the task tool) caused: the task call it belongs to.
export interface NestMeta { tandem?: { parentToolCallId?: string; agent?: string } }

export type SessionUpdate =
  | { sessionUpdate: 'agent_message_chunk' | 'agent_thought_chunk' | 'user_message_chunk'; content: ContentBlock; _meta?: NestMeta }
  | ({ sessionUpdate: 'tool_call' | 'tool_call_update' } & ToolCallFields)
  | { sessionUpdate: 'plan'; entries: PlanEntry[] }
  | { sessionUpdate: 'current_mode_update'; currentModeId: string }
  | { sessionUpdate: 'available_commands_update'; availableCommands: { name: string; description: string }[] }
  | { sessionUpdate: 'usage_update'; used: number; size: number; cost?: { amount: number; currency: string } };

export interface UpdateParams { sessionId: string; update: SessionUpdate }

export interface PermissionOption {
  optionId: string;
  name: string;
  kind: 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always';
}

export interface RequestPermissionParams {
  sessionId: string;
  toolCall: ToolCallFields;
  options: PermissionOption[];
}

export type PermissionOutcome =
  | { outcome: { outcome: 'selected'; optionId: string } }
  | { outcome: { outcome: 'cancelled' } };

// The client capability that makes the server send tandem/requestPermission
// rather than a plain window/showMessageRequest.
// previewEdits hands an edit's approval to VS Code's refactor preview
// instead (the tandem.reviewEdits setting).
export function experimentalCapabilities(previewEdits: boolean) {
  return { tandem: { permissions: true, previewEdits } };
}
