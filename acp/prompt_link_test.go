package acp

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// Through tandem acp: a resource_link with "#L2-3" or "#L4" sends only those
// lines, a link to a directory sends its listing instead of failing the
// prompt, and audio is refused with a message that says so (tandem sends no
// audio to a model, so initialize does not offer it).
func TestPromptResourceLinkRangesAndDirectories(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Text: []string{"Seen."}})
	p := startTandem(t, srv, t.TempDir(), newEditor(t))
	p.initialize(t, true, false)
	dir := workspace(t, map[string]string{"a.go": "line1\nline2\nline3\nline4\nline5\n", "pkg/x.go": "package pkg\n", "pkg/sub/y.go": "package sub\n"})
	sid := p.newSession(t, dir)
	link := func(rel, frag string) sdk.ContentBlock {
		return sdk.ResourceLinkBlock(rel, "file://"+filepath.Join(dir, rel)+frag)
	}
	resp, err := p.conn.Prompt(ctxT(t), sdk.PromptRequest{SessionId: sid, Prompt: []sdk.ContentBlock{
		sdk.TextBlock("look"), link("a.go", "#L2-3"), link("a.go", "#L4"), link("pkg", ""),
	}})
	if err != nil || resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %v, %v", resp, err)
	}
	got := srv.Requests()[0].LastUserText()
	for _, want := range []string{
		"<file path=\"a.go\" lines=\"2-3\">\nline2\nline3\n</file>",
		"<file path=\"a.go\" lines=\"4-4\">\nline4\n</file>",
		"<directory path=\"pkg\" entries=\"2\">\nsub/\nx.go\n</directory>",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the request lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "line1") || strings.Contains(got, "line5") {
		t.Errorf("lines outside the linked ranges were sent:\n%s", got)
	}

	_, err = p.conn.Prompt(ctxT(t), sdk.PromptRequest{SessionId: sid, Prompt: []sdk.ContentBlock{sdk.AudioBlock("AAAA", "audio/wav")}})
	var re *sdk.RequestError
	if !errors.As(err, &re) || re.Code != -32602 || !strings.Contains(re.Message, "promptCapabilities.audio is false") {
		t.Errorf("an audio prompt: %v, want -32602 naming promptCapabilities.audio", err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d model requests, want 1 (the audio prompt must not reach the model)", n)
	}
}
