package sandbox

import (
	"fmt"
	"os"
	"strconv"
)

// statusFD is the descriptor on which the helper tells the runner which
// signal ended the command: an exit status alone cannot say it.
const statusFD = 3

// Main guards the helper's entry. The helper itself is C (helper_linux.c)
// and runs from a constructor before the Go runtime starts, so a process
// started with HelperArg never reaches Go; one that does was built without
// cgo, and refuses rather than run the command unconfined. Otherwise Main
// returns at once. Call it first thing in main (and in TestMain of tests
// that run confined commands).
func Main() {
	if len(os.Args) < 2 || os.Args[1] != HelperArg {
		return
	}
	fmt.Fprintln(os.Stderr, "tandem sandbox: this binary was built without cgo, and its sandbox helper is C")
	os.Exit(126)
}

// helperArgs are the arguments that follow HelperArg, in the order the
// helper reads them: "on" or "off" (confine or only be the namespace's
// init), "deny" or "allow" (TCP), then three counted lists — the paths
// Landlock lets the command write, the entries bound read-only, the
// entries hidden — and the command. The protected entries are listed here,
// just before the helper starts, so they are the workspace's current ones.
func helperArgs(p Policy, argv ...string) []string {
	on, net := "on", "allow"
	if p.Mode == ModeOff {
		on = "off"
	}
	if p.NetworkDeny {
		net = "deny"
	}
	rw := append(append([]string{"/dev"}, p.Writable...), p.Roots...)
	var protected []string
	for _, root := range p.Roots {
		protected = append(protected, Protected(root)...)
	}
	args := []string{on, net}
	for _, list := range [][]string{rw, protected, p.Hidden} {
		args = append(append(args, strconv.Itoa(len(list))), list...)
	}
	return append(args, argv...)
}
