// Package mcp connects one tandem session to its MCP servers and offers
// their tools to the model as tools.Tool values named mcp__<server>__<tool>.
//
// Servers come from the editor (ACP session/new mcpServers, LSP
// tandem/newSession mcpServers) and from two mcp.json files, the user's in
// $TANDEM_HOME and the project's in <root>/.tandem; Merge resolves name
// clashes (editor > project > user). Start connects every server in the
// background and announces tools as each server becomes ready, so opening a
// session never waits on a slow server; Await lets a turn wait for them,
// bounded, before its first request. A server's questions (elicitation)
// go to Options.OnElicit, and a remote server that asks for OAuth gets the
// user signed in, its token kept in OAuthFile.
//
// A Manager belongs to exactly one session and must never be shared: its
// servers see that session's root as their only MCP root, and its stdio
// server processes die with it. A broken server (fails to start, crashes,
// hangs, speaks garbage) is reported once and its tools withdrawn; it never
// takes the session down. This package never writes to stdout (the editor
// protocol owns it), never passes tandem's own provider keys to a server,
// and never logs an OAuth token.
package mcp
