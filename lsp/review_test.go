package lsp_test

import (
	"encoding/json"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// TestEditReviewedOnce runs a code-mode edit (one that asks) for a client
// like VS Code, which supports change annotations. With tandem's permission
// prompt the approval is the review and the edit applies directly, without
// needsConfirmation; a client declaring experimental.tandem.previewEdits
// gets no prompt and the edit instead carries needsConfirmation, so the
// refactor preview is the one review.
func TestEditReviewedOnce(t *testing.T) {
	t.Parallel()
	for _, preview := range []bool{false, true} {
		name := map[bool]string{false: "permission prompt", true: "refactor preview"}[preview]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			caps := map[string]any{
				"workspace": map[string]any{"applyEdit": true, "workspaceEdit": map[string]any{
					"documentChanges": true, "changeAnnotationSupport": map[string]any{"groupsOnLabel": true}}},
				"experimental": map[string]any{"tandem": map[string]any{"permissions": true, "previewEdits": preview}},
			}
			f := newFixture(t, caps, "code",
				llmtest.Reply{ToolCalls: []llmtest.ToolCall{editCall("main.go", "func f() {}", "func g() {}")}},
				llmtest.Reply{Text: []string{"ok"}},
			)
			path := f.write("main.go", wideText)
			ed := newEditor("utf-16")
			ed.open(f.c, path, wideText)
			var asked int
			var got []wireApplyEdit
			f.c.onRequest(func(method string, params json.RawMessage) (any, *rpcError) {
				switch method {
				case "tandem/requestPermission":
					asked++
					return map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": "allow_once"}}, nil
				case "workspace/applyEdit":
					var p wireApplyEdit
					if err := json.Unmarshal(params, &p); err != nil {
						t.Errorf("applyEdit params: %v", err)
					}
					got = append(got, p)
					if err := ed.apply(f.c, p); err != nil {
						return map[string]any{"applied": false, "failureReason": err.Error()}, nil
					}
					return map[string]any{"applied": true}, nil
				}
				return nil, &rpcError{Code: -32601, Message: method}
			})
			if stop, err := f.prompt("rename f"); err != nil || stop != "end_turn" {
				t.Fatalf("prompt: %q, %v", stop, err)
			}
			if len(got) != 1 {
				t.Fatalf("got %d workspace/applyEdit requests, want 1", len(got))
			}
			confirm := false
			for _, a := range got[0].Edit.ChangeAnnotations {
				confirm = confirm || a.NeedsConfirmation
			}
			wantAsked := map[bool]int{false: 1, true: 0}[preview]
			if asked != wantAsked || confirm != preview {
				t.Errorf("permission prompts %d, needsConfirmation %v; want %d and %v (one review, never two)",
					asked, confirm, wantAsked, preview)
			}
		})
	}
}
