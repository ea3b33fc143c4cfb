package main

import (
	"os"

	"github.com/tandemhq/tandem/plugin/checkpoints"
	"github.com/tandemhq/tandem/plugin/sdk"
)

// servePlugin turns this process into a bundled plugin when run as
// `tandem __plugin NAME` (the main of agent/plugin/bundled/NAME), and then
// never returns.
func servePlugin() {
	if len(os.Args) < 3 || os.Args[1] != "__plugin" {
		return
	}
	if p := bundledPlugin(os.Args[2]); p != nil {
		p.Main()
	}
	os.Stderr.WriteString("tandem: no bundled plugin " + os.Args[2] + "\n")
	os.Exit(2)
}

// bundledPlugin is the bundled plugin NAME compiled into tandem, or nil.
// The runtime serves it in this process (plugin.Options.InProcess);
// `tandem __plugin NAME` serves it on stdio.
func bundledPlugin(name string) *sdk.Plugin {
	switch name {
	case "checkpoints":
		return checkpoints.Plugin()
	}
	return nil
}

// self is this executable's path, for bundled plugins it serves; "" when
// the system cannot say.
func self() string {
	p, err := os.Executable()
	if err != nil {
		return ""
	}
	return p
}
