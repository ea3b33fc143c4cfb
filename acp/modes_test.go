package acp

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// defsFixture holds mode and agent files in tandem's and Claude Code's
// formats: project/ is copied into a workspace, tandemhome/ into
// $TANDEM_HOME, userhome/ into $HOME.
const defsFixture = "../agent/custom/testdata/defs"

// startWithDefs starts `tandem acp` on a workspace holding the fixture's
// project files (plus files), with the fixture's user folders.
func startWithDefs(t *testing.T, srv *llmtest.Server, ed *editor, files map[string]string) (p *tandemProcess, dir, home string) {
	t.Helper()
	dir, home, userHome := workspace(t, files), t.TempDir(), t.TempDir()
	for src, dst := range map[string]string{"project": dir, "tandemhome": home, "userhome": userHome} {
		if err := os.CopyFS(dst, os.DirFS(filepath.Join(defsFixture, src))); err != nil {
			t.Fatal(err)
		}
	}
	p = startCmd(t, exec.Command("env", "HOME="+userHome, testenv.Tandem(t), "acp"), srv, home, ed)
	p.initialize(t, true, false)
	return p, dir, home
}

// userText is the text of a request's last user message.
func userText(r *llmtest.Request) string {
	var b strings.Builder
	for _, p := range r.Messages[len(r.Messages)-1].Content {
		if p.Type == llm.PartText {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// TestCustomModes: project and user mode files join the built-ins as ACP
// modes and config options (a user file replacing code in place), a custom
// mode restricts the tools offered and states its role once, the request
// prefix stays byte-stable across turns, and broken files are reported.
func TestCustomModes(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Handle(func(*llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: []string{"ok"}} })
	ed := newEditor(t)
	p, dir, _ := startWithDefs(t, srv, ed, nil)
	r, err := p.conn.NewSession(ctxT(t), sdk.NewSessionRequest{Cwd: dir, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	sid := r.SessionId
	var ids, names []string
	for _, m := range r.Modes.AvailableModes {
		ids, names = append(ids, string(m.Id)), append(names, m.Name)
	}
	if got := strings.Join(ids, " "); got != "ask code auto-edit full-auto docs review" {
		t.Errorf("modes = %s", got)
	}
	if names[1] != "My code" || names[5] != "Review" || r.Modes.CurrentModeId != "code" {
		t.Errorf("names = %q, current %s", names, r.Modes.CurrentModeId)
	}
	var options []string
	for _, o := range r.ConfigOptions {
		if o.Select != nil && o.Select.Id == "mode" {
			for _, v := range *o.Select.Options.Ungrouped {
				options = append(options, string(v.Value))
			}
		}
	}
	if !slices.Equal(options, ids) {
		t.Errorf("mode config option values = %v, want %v", options, ids)
	}

	if _, err := p.conn.SetSessionMode(ctxT(t), sdk.SetSessionModeRequest{SessionId: sid, ModeId: "review"}); err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"first", "second"} {
		if stop, err := p.prompt(t, sid, text); err != nil || stop != sdk.StopReasonEndTurn {
			t.Fatalf("prompt %s = %q, %v", text, stop, err)
		}
	}
	reqs := srv.Requests()
	for _, tool := range []string{"write_file", "edit_file", "run_command"} {
		if slices.Contains(reqs[0].Tools, tool) {
			t.Errorf("review mode offers %s: %v", tool, reqs[0].Tools)
		}
	}
	if !slices.Contains(reqs[0].Tools, "read_file") || !slices.Contains(reqs[0].Tools, "update_plan") {
		t.Errorf("review mode tools = %v", reqs[0].Tools)
	}
	if u := userText(reqs[0]); !strings.Contains(u, "The session is in Review mode (review)") || !strings.Contains(u, "You are reviewing code") {
		t.Errorf("first message does not carry the role: %q", u)
	}
	if u := userText(reqs[1]); strings.Contains(u, "system-reminder") {
		t.Errorf("the role was repeated: %q", u)
	}
	if err := llmtest.AppendOnly(llmtest.Anthropic, reqs[0].Body, reqs[1].Body); err != nil {
		t.Errorf("second request is not the first plus new messages: %v", err)
	}
	if agentText := ed.agentText(sid); !strings.Contains(agentText, "Bad_Name.md") || !strings.Contains(agentText, `"browse" is not a tool group`) {
		t.Errorf("broken mode files were not reported: %q", agentText)
	}

	// docs names its own model and offers edits but no commands.
	if _, err := p.conn.SetSessionConfigOption(ctxT(t), sdk.SetSessionConfigOptionRequest{ValueId: &sdk.SetSessionConfigOptionValueId{SessionId: sid, ConfigId: "mode", Value: "docs"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.prompt(t, sid, "third"); err != nil {
		t.Fatal(err)
	}
	reqs = srv.Requests()
	docs := reqs[2]
	if docs.Model != "doc-writer-model" || !slices.Contains(docs.Tools, "write_file") || slices.Contains(docs.Tools, "run_command") {
		t.Errorf("docs request: model %s tools %v", docs.Model, docs.Tools)
	}
	if docs.System != reqs[0].System {
		t.Error("the system prompt changed with the mode")
	}
	if u := userText(docs); !strings.Contains(u, "Docs mode (docs)") {
		t.Errorf("docs role missing: %q", u)
	}

	_, err = p.conn.SetSessionMode(ctxT(t), sdk.SetSessionModeRequest{SessionId: sid, ModeId: "yolo"})
	if err == nil || !strings.Contains(err.Error(), "review") {
		t.Errorf("unknown mode error = %v; it should list the session's modes", err)
	}
}
