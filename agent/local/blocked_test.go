package local

import (
	"testing"

	"github.com/tandemhq/tandem/agent/sandbox"
)

// A helper confines commands where the platform has a sandbox (Landlock,
// Seatbelt); where it has none (Windows, a kernel without Landlock) the
// user is told instead.
func TestConfinement(t *testing.T) {
	avail, _ := sandbox.Available()
	for _, tc := range []struct {
		s                       sandbox.Settings
		known, confined, notice bool
	}{
		{sandbox.Settings{}, false, false, false},
		{sandbox.Settings{Helper: "/bin/tandem"}, true, avail, !avail},
		{sandbox.Settings{Helper: "/bin/tandem", Mode: sandbox.ModeOff}, true, false, false},
	} {
		c := confinement(tc.s)
		if c.Known != tc.known || c.Confined != tc.confined || c.Notice != tc.notice || (!c.Confined && c.Why == "") {
			t.Errorf("%+v: %+v", tc.s, c)
		}
	}
}
