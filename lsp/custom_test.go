package lsp_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// Over LSP: a new session's commands arrive as tandem/update after its
// id; a subfolder command takes $1 and $2; a Claude Code command of the
// user's home includes @$1; a skill invoked with a slash brings its
// SKILL.md; and the request prefix holds across the turns.
func TestCustomCommandsOverLSP(t *testing.T) {
	model := llmtest.NewServer(t)
	model.Handle(func(*llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: []string{"ok"}} })
	fixtures := filepath.Join("..", "agent", "custom", "testdata")
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home, userHome := t.TempDir(), t.TempDir()
	testenv.CopyTree(t, filepath.Join(fixtures, "project"), root)
	testenv.CopyTree(t, filepath.Join(fixtures, "tandemhome"), home)
	testenv.CopyTree(t, filepath.Join(fixtures, "userhome"), userHome)
	c := startClient(t, append(fakeModelEnvHome(t, model, home), "HOME="+userHome))
	c.initialize(root, nil)
	f := &fixture{t: t, c: c, model: model, root: root}
	f.write("notes.txt", "NOTES ON DISK")
	var res struct {
		SessionID string `json:"sessionId"`
	}
	c.mustCall("tandem/newSession", map[string]any{}, &res)
	f.session = res.SessionID

	m := c.waitMsg("available_commands_update", func(m rpcMsg) bool {
		return m.Method == "tandem/update" && strings.Contains(string(m.Params), "available_commands_update")
	})
	var u struct {
		SessionID string `json:"sessionId"`
		Update    struct {
			AvailableCommands []struct {
				Name  string `json:"name"`
				Input *struct {
					Hint string `json:"hint"`
				} `json:"input"`
			} `json:"availableCommands"`
		} `json:"update"`
	}
	if err := json.Unmarshal(m.Params, &u); err != nil || u.SessionID != f.session {
		t.Fatalf("commands update %s: %v", m.Params, err)
	}
	respAt, updAt := -1, -1
	for i, msg := range c.messages() {
		switch {
		case respAt < 0 && strings.Contains(string(msg.Result), f.session):
			respAt = i
		case updAt < 0 && msg.Method == "tandem/update":
			updAt = i
		}
	}
	if respAt < 0 || updAt < respAt {
		t.Errorf("the commands update (message %d) came before the newSession response (message %d)", updAt, respAt)
	}
	hints := map[string]string{}
	for _, cmd := range u.Update.AvailableCommands {
		hints[cmd.Name] = ""
		if cmd.Input != nil {
			hints[cmd.Name] = cmd.Input.Hint
		}
	}
	if hints["frontend:component"] != "<name> <framework>" || hints["explain"] != "<path>" {
		t.Errorf("advertised commands: %v", hints)
	}
	if _, ok := hints["pdf-forms"]; !ok {
		t.Errorf("the pdf-forms skill is not offered as a command: %v", hints)
	}

	for _, p := range []string{`/frontend:component Button "react native"`, "/explain notes.txt", "/pdf-forms the visa form"} {
		if reason, rerr := f.prompt(p); rerr != nil || reason != "end_turn" {
			t.Fatalf("%s: %q %v", p, reason, rerr)
		}
	}
	reqs := model.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests, want 3", len(reqs))
	}
	if got := reqs[0].LastUserText(); got != "Create a component named Button using react native. Keep it small.\n" {
		t.Errorf("/frontend:component expanded to %q", got)
	}
	if got := reqs[1].LastUserText(); got != "Explain @notes.txt to a newcomer.\n\n<file path=\"notes.txt\">\nNOTES ON DISK\n</file>" {
		t.Errorf("/explain expanded to %q", got)
	}
	got := reqs[2].LastUserText()
	if !strings.Contains(got, "Run `scripts/fill.py <form.pdf> <data.json>`") || !strings.Contains(got, "Files: reference.md, scripts/fill.py") ||
		!strings.HasSuffix(got, "The request: the visa form") {
		t.Errorf("/pdf-forms reached the model as\n%s", got)
	}
	for i := 1; i < len(reqs); i++ {
		if err := llmtest.PrefixKept(reqs[i-1], reqs[i]); err != nil {
			t.Error(err)
		}
	}
}
