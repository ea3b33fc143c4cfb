package agent

import "testing"

// The ids are a contract (DESIGN.md, editors, the CLI flag); the texts that
// list them come from ModeIDs, so pin both here.
func TestModeChoices(t *testing.T) {
	if got, want := ModeChoices(), "ask, code, auto-edit or full-auto"; got != want {
		t.Errorf("ModeChoices() = %q, want %q", got, want)
	}
	if _, err := ParseMode("yolo"); err == nil || err.Error() != `unknown mode "yolo": use ask, code, auto-edit or full-auto` {
		t.Errorf("ParseMode(yolo) error = %v", err)
	}
	for _, id := range ModeIDs() {
		if m, err := ParseMode(id); err != nil || string(m) != id {
			t.Errorf("ParseMode(%q) = %q, %v", id, m, err)
		}
	}
}
