// Package local is the host that works on this machine: files on the local
// disk and commands in a local process group. Front doors without an
// editor-side file system or terminal (the CLI, ACP clients lacking those
// capabilities, LSP for what workspace/applyEdit cannot do) use it or embed
// it. It implements the file and command half of agent.Host with the
// semantics written down there and checked by agent/hosttest.
//
// It is the only place the agent's edits reach the disk directly; it must
// never decide whether an edit is allowed (that is the permission policy's
// job in agent) and never talk to an editor.
package local
