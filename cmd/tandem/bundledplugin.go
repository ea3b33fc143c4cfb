package main

import (
	"os"

	"github.com/tandemhq/tandem/plugin/checkpoints"
)

// servePlugin turns this process into a bundled plugin when run as
// `tandem __plugin NAME` (the main of agent/plugin/bundled/NAME), and then
// never returns.
func servePlugin() {
	if len(os.Args) < 3 || os.Args[1] != "__plugin" {
		return
	}
	switch os.Args[2] {
	case "checkpoints":
		checkpoints.Plugin().Main()
	}
	os.Stderr.WriteString("tandem: no bundled plugin " + os.Args[2] + "\n")
	os.Exit(2)
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
