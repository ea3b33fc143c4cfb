package agent

import (
	"context"
	"errors"
	"testing"
)

// A switch set in a session is kept with it: a resumed session and a fork
// have it as it was set. The sandbox switch is not offered by a host that
// does not say it confines commands, and a switch takes only on or off.
func TestTogglesKeptWithTheSession(t *testing.T) {
	f := newFixture(t)
	s, _, dir := f.session(ModeCode, nil)
	if err := s.Select(ToggleAutoCompact, "maybe"); !errors.Is(err, ErrUnknownSelector) {
		t.Errorf("auto_compact=maybe: %v", err)
	}
	if err := s.Select(ToggleSandbox, ToggleOff); !errors.Is(err, ErrUnknownSelector) {
		t.Errorf("the sandbox switch on a host that does not confine: %v", err)
	}
	if err := s.Select(ToggleAutoCompact, ToggleOff); err != nil {
		t.Fatal(err)
	}
	if got := s.Toggles(); !got.AutoCompactOff || got.SandboxOff {
		t.Errorf("after auto_compact=off: %+v", got)
	}
	s.Close()
	for name, open := range map[string]func(context.Context, SessionOptions) (*Session, error){
		"resume": f.agent.ResumeSession, "fork": f.agent.ForkSession,
	} {
		s2, err := open(context.Background(), SessionOptions{ID: s.ID(), Cwd: dir, Host: &testHost{}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := s2.Toggles(); !got.AutoCompactOff {
			t.Errorf("%s: switches %+v, want auto-compaction off", name, got)
		}
		var shown bool
		for _, sel := range s2.Selectors() {
			if sel.ID == ToggleAutoCompact {
				shown = sel.Toggle && sel.Current == ToggleOff
			}
			if sel.ID == ToggleSandbox {
				t.Errorf("%s: a sandbox switch on a host that does not confine: %+v", name, sel)
			}
		}
		if !shown {
			t.Errorf("%s: auto_compact not shown off: %+v", name, s2.Selectors())
		}
		s2.Close()
	}
}
