// Package sdk is the plugin protocol of tandem in Go: the wire types of
// every method (protocol.go, hooks.go, host.go) and a serve loop (serve.go)
// that turns a Plugin value into a process tandem can run; Direct
// (direct.go) serves the same handlers to a host in the same process, as
// tandem serves the plugins compiled into it.
//
// A tandem plugin with code is a separate process. tandem starts it with
// the plugin folder as its working directory and speaks JSON-RPC 2.0 with
// it over its stdin and stdout, one JSON message per line; stderr goes to
// the plugin's log file. docs/plugins.md describes the same protocol for
// authors in any language. The method names and field names here are that
// contract: tandem's runtime (agent/plugin) uses these very types, so the
// two sides cannot drift apart.
//
// This package must never import tandem's agent packages: a plugin built
// on it depends only on the protocol, not on tandem's internals.
package sdk
