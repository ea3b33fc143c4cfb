package agent

import (
	"slices"

	"github.com/tandemhq/tandem/agent/edits"
)

// shownEdits records the edits a call put before the user (each Ask that
// carried a diff), so a failed call can say that none of them happened.
// It needs no lock: a tool asks on the goroutine that runs it (Ask is a
// call inside Run), and the call reads it only after Run returned.
type shownEdits struct {
	edits []edits.FileEdit
}

func (s *shownEdits) add(e edits.FileEdit) { s.edits = append(s.edits, e) }

// unchanged is a diff with no change for every shown edit that was not
// applied. ACP says a tool_call_update's content replaces the call's
// content, but some clients (agent-shell) keep the last diff they were
// given and would show a failed edit's proposal as if it had been made;
// an empty diff for the same file replaces it there and reads as "nothing
// changed" everywhere else.
func (s *shownEdits) unchanged(applied []edits.FileEdit) []ToolContent {
	var out []ToolContent
	for _, e := range s.edits {
		if slices.ContainsFunc(applied, func(a edits.FileEdit) bool { return a.Path == e.Path }) {
			continue
		}
		out = append(out, DiffContent(edits.FileEdit{Path: e.Path, Old: e.Old, New: e.Old}))
	}
	return out
}

// failedContent is what a failed call shows: the error, then the empty
// diffs of the edits it proposed and did not make.
func failedContent(msg string, shown *shownEdits, applied []edits.FileEdit) []ToolContent {
	var out []ToolContent
	if msg != "" {
		out = append(out, TextContent(msg))
	}
	return append(out, shown.unchanged(applied)...)
}
