// Package bundled holds the plugins built into the tandem binary: each
// folder here with a plugin.json is a bundled plugin (it may set
// defaultEnabled). Bundled plugins with code are copied out under
// $TANDEM_HOME/cache/bundled-plugins/ when they first run.
//
// This package must never hold anything but plugin folders.
package bundled

import "embed"

// FS is the bundled plugins' folders.
//
//go:embed *
var FS embed.FS
