package main

import (
	"context"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/edits"
)

// The terminal prompt shows an edit as a unified diff (edits.Unified), so
// the user sees the changed lines in context, not the whole file twice.
func TestRunPromptShowsUnifiedDiff(t *testing.T) {
	var errw strings.Builder
	h := &cliHost{out: newTextOutput(newScreen(&strings.Builder{}, &errw, style{}, false, nil)), in: newKeyboard(strings.NewReader(""))}
	fe := edits.FileEdit{Path: "/w/a.txt", Old: "1\n2\n3\n4\n5\n6\n7\n8\n", New: "1\n2\n3\n4\nfive\n6\n7\n8\n"}
	req := agent.PermissionRequest{ToolCall: agent.ToolCall{Title: "Edit a.txt", Content: []agent.ToolContent{agent.DiffContent(fe)}}}
	d, err := h.RequestPermission(context.Background(), req)
	if err != nil || d.Kind != agent.RejectOnce { // no answer (EOF) rejects
		t.Fatalf("decision %+v, %v", d, err)
	}
	want := "--- /w/a.txt\n+++ /w/a.txt\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"
	if !strings.Contains(errw.String(), want) || strings.Contains(errw.String(), "- 1") {
		t.Errorf("prompt:\n%s\nwant the diff:\n%s", errw.String(), want)
	}
}
