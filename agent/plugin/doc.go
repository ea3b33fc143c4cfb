// Package plugin runs tandem's plugins: it reads and checks plugin.json
// manifests (manifest*.go), finds plugin folders (discover.go), keeps the
// user's consent (state.go), installs and packs plugins (install*.go), and
// runs a plugin's code as a child process per session speaking JSON-RPC
// over its stdio (process.go, instance.go; a bundled plugin compiled into
// tandem is called in process instead, direct.go), wired into the turn pipeline's
// seams (runtime.go, hooks.go, tool.go, turn.go) and answering its calls
// to the host (hostcalls.go, timeline.go, mcpcall.go, model.go).
//
// A plugin is a folder. Its declarative parts are handed to the agent as
// folders and files to load, namespaced "<plugin>:": commands and skills
// (custom.go, CustomSources), modes, agents and rules (Contributions),
// MCP servers (mcp.go, attached to the session); its code, when it has a
// "main", is a separate process in any language. The wire types are those
// of plugin/sdk.
//
// What this package must never do: run a plugin the user has not enabled;
// let a plugin's failure (crash, hang, garbage, a slow hook) fail a turn or
// a session; hand a plugin anything its permissions do not cover (no API
// key, no file outside its grants); write to stdout.
package plugin
