package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/llm/models"
	"github.com/tandemhq/tandem/agent/tools"
	"github.com/tandemhq/tandem/internal/redact"
)

// secretKey stands for a provider key or a token in tandem's environment.
const secretKey = "ghp_0123456789abcdefghijklmnopqrstuvwxyz"

// sessionFiles is every byte the store wrote under home.
func sessionFiles(t *testing.T, home string) string {
	t.Helper()
	var all strings.Builder
	filepath.WalkDir(home, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			all.Write(b)
		}
		return nil
	})
	return all.String()
}

func TestSecretsNeverLeaveASession(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.Redact = redact.New(secretKey) })
	s, h, _ := f.session(ModeFullAuto, map[string]string{".env": "TOKEN=" + secretKey + "\n"})
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c1", "read_file", `{"path":".env"}`)}},
		llmtest.Reply{Text: []string{"the file says TOKEN=", secretKey}},
		llmtest.Reply{StreamError: "invalid key " + secretKey},
	)
	if _, err := s.Prompt(context.Background(), prompt("read .env")); err != nil {
		t.Fatal(err)
	}
	_, err := s.Prompt(context.Background(), prompt("again"))
	if err == nil {
		t.Fatal("the stream error did not fail the turn")
	}
	if strings.Contains(err.Error(), secretKey) {
		t.Errorf("a provider error echoed the key to the front door: %v", err)
	}
	if r, ok := toolResult(f.srv.Requests(), "c1"); !ok || strings.Contains(r.Text, secretKey) || !strings.Contains(r.Text, redact.Mask) {
		t.Errorf("the model read the secret: %+v", r)
	}
	for _, u := range h.snapshot() {
		if b, _ := u.MarshalJSON(); strings.Contains(string(b), secretKey) {
			t.Errorf("an update to the editor carried the secret: %s", b)
		}
	}
	s.Close()
	if strings.Contains(sessionFiles(t, f.home), secretKey) {
		t.Error("the session files hold the secret")
	}
}

func TestHugeToolResultIsCut(t *testing.T) {
	huge := strings.Repeat("0123456789abcdef\n", 3<<20/17)
	flood := tools.New(tools.Spec[struct{}]{Name: "flood", Group: tools.GroupRead, Kind: tools.KindRead, Doc: "floods",
		Run: func(context.Context, *tools.Env, struct{}) (tools.Result, error) {
			return tools.Result{Output: "BEGIN\n" + huge + "END\n"}, nil
		}})
	f := newFixture(t, func(c *Config) {
		c.ExtraTools = []tools.Tool{flood}
		// A window the result fits in, so compaction leaves it alone.
		c.Windows = &models.Windows{Config: map[string]int{"test-model": 10_000_000}}
	})
	s, h, _ := f.session(ModeCode, nil)
	f.srv.Enqueue(llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c1", "flood", `{}`)}}, llmtest.Reply{Text: []string{"ok"}})
	if _, err := s.Prompt(context.Background(), prompt("flood")); err != nil {
		t.Fatal(err)
	}
	r, ok := toolResult(f.srv.Requests(), "c1")
	if !ok || len(r.Text) > MaxResultBytes || !strings.HasPrefix(r.Text, "BEGIN") || !strings.HasSuffix(r.Text, "END\n") {
		t.Fatalf("the model's result: %d bytes, ok %v", len(r.Text), ok)
	}
	if !strings.Contains(r.Text, "[tandem cut ") || !strings.Contains(r.Text, "read_file with offset and limit") {
		t.Errorf("the cut is not explained: %q", r.Text[MaxResultBytes/2-600:MaxResultBytes/2+200])
	}
	for _, u := range h.snapshot() {
		if b, _ := u.MarshalJSON(); len(b) > 2*MaxResultBytes {
			t.Errorf("an update of %d bytes went to the editor", len(b))
		}
	}
}

func TestClipKeepsRunesWhole(t *testing.T) {
	s := strings.Repeat("é", 3000)
	out := clip(s, 2000)
	if !strings.Contains(out, "[tandem cut ") || strings.ContainsRune(out, '\uFFFD') || len(out) > 2000 {
		t.Errorf("clip = %d bytes %q", len(out), out)
	}
	if clip("short", 10) != "short" {
		t.Error("clip changed a short text")
	}
}

// The permission prompt for an edit of a file holding a secret shows the
// diff without it; the file itself gets the real content.
func TestPermissionRequestsAreRedacted(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.Redact = redact.New(secretKey) })
	s, h, dir := f.session(ModeCode, map[string]string{".env": "A=1\n"})
	args := `{"path":".env","old_string":"A=1","new_string":"TOKEN=` + secretKey + `"}`
	f.srv.Enqueue(llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c1", "edit_file", args)}}, llmtest.Reply{Text: []string{"ok"}})
	if _, err := s.Prompt(context.Background(), prompt("set the token")); err != nil {
		t.Fatal(err)
	}
	if h.askCount() != 1 {
		t.Fatalf("asks = %d", h.askCount())
	}
	b, _ := json.Marshal(h.asks[0])
	if strings.Contains(string(b), secretKey) || !strings.Contains(string(b), redact.Mask) {
		t.Errorf("the permission request carried the secret: %s", b)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, ".env")); string(got) != "TOKEN="+secretKey+"\n" {
		t.Errorf("the file got %q; redaction must not touch what is written", got)
	}
}
