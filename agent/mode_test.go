package agent

import (
	"slices"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/custom"
)

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

// A private mode parses by its slug but is in no list a user picks from,
// except as the current mode, which an editor must be able to show.
func TestPrivateModeHiddenButParsed(t *testing.T) {
	ms := append(builtinModes(), custom.Mode{Slug: "ci:verifier", Name: "Verifier", Private: true})
	if m, err := ms.parse("ci:verifier"); err != nil || m != "ci:verifier" {
		t.Errorf("parse = %q, %v", m, err)
	}
	listed := func(infos []ModeInfo) bool {
		return slices.ContainsFunc(infos, func(i ModeInfo) bool { return i.ID == "ci:verifier" })
	}
	if listed(ms.infos(ModeCode)) || slices.Contains(ms.ids(), "ci:verifier") || strings.Contains(ms.choices(), "verifier") {
		t.Errorf("the private mode is offered: %v %v %q", ms.infos(ModeCode), ms.ids(), ms.choices())
	}
	if !listed(ms.infos("ci:verifier")) {
		t.Errorf("the current private mode is not listed: %v", ms.infos("ci:verifier"))
	}
}
