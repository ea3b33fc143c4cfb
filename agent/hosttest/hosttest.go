// Package hosttest is the conformance suite for the file and command side
// of agent.Host, in the manner of log/slog's slogtest: every host (the
// local one, ACP's, LSP's) runs the same checks from its own tests, so the
// hosts cannot drift apart on what a read, an edit or a cancel means.
//
// It is test support only: production code must never import it.
package hosttest

import (
	"context"
	"testing"

	"github.com/tandemhq/tandem/agent/tools"
)

// Harness is the host under test and what the suite may do to the editor
// behind it.
type Harness struct {
	// Host is the host under test. The suite calls it from test goroutines.
	Host tools.Host
	// Root is the host's session root: absolute, symlinks resolved, on
	// disk. The suite creates its files below it.
	Root string
	// Outside is a directory outside Root the suite may try to write
	// into; an edit there must be refused.
	Outside string
	// SetBuffer opens path in the editor holding text as unsaved changes
	// (the disk keeps what it has). Nil when the host has no editor.
	SetBuffer func(t *testing.T, path, text string)
	// Stall makes the editor hold its answer to the host's next request.
	// arrived is closed once that request has reached the editor; release
	// lets the editor answer again. Nil when no call blocks on an editor.
	Stall func(t *testing.T) (arrived <-chan struct{}, release func())
}

// check is one named conformance check.
type check struct {
	name   string
	buffer bool // needs Harness.SetBuffer
	stall  bool // needs Harness.Stall
	run    func(t *testing.T, s *suite)
}

// applies reports whether c can run against h.
func (c check) applies(h Harness) bool {
	return (!c.buffer || h.SetBuffer != nil) && (!c.stall || h.Stall != nil)
}

// Run runs every check against h, each as a subtest with files of its own.
func Run(t *testing.T, h Harness) {
	t.Helper()
	for _, c := range checks {
		if !c.applies(h) {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			c.run(t, &suite{h: h, dir: newDir(t, h.Root), ctx: context.Background()})
		})
	}
}

// Checks lists the names of the checks Run performs against h, in order.
func Checks(h Harness) []string {
	var names []string
	for _, c := range checks {
		if c.applies(h) {
			names = append(names, c.name)
		}
	}
	return names
}
