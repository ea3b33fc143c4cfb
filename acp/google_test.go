package acp

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// thoughtText joins the thought chunks the editor got for sid.
// thinkAcrossRestart is the providers' end-to-end round: in a process from
// start, a new session's first prompt must show the editor the thought
// "weigh it" and the answer "first answer"; then a second process loads the
// session from its file and prompts it again, so the model's second request
// shows what the session file carried. It returns the session's id.
func thinkAcrossRestart(t *testing.T, start func() *tandemProcess) sdk.SessionId {
	t.Helper()
	p := start()
	dir := workspace(t, nil)
	sid := p.newSession(t, dir)
	if _, err := p.prompt(t, sid, "think first"); err != nil {
		t.Fatal(err)
	}
	if got := thoughtText(p, sid); got != "weigh it" || p.ed.agentText(sid) != "first answer" {
		t.Errorf("thought %q, message %q", got, p.ed.agentText(sid))
	}
	p.closeAndWait(t)

	p2 := start()
	if _, err := p2.conn.LoadSession(ctxT(t), sdk.LoadSessionRequest{SessionId: sid, Cwd: dir, McpServers: []sdk.McpServer{}}); err != nil {
		t.Fatal(err)
	}
	if _, err := p2.prompt(t, sid, "and now"); err != nil {
		t.Fatal(err)
	}
	return sid
}

func thoughtText(p *tandemProcess, sid sdk.SessionId) string {
	var b strings.Builder
	for _, r := range p.ed.sessionUpdates(sid) {
		if r.u.Type == agent.AgentThoughtChunk && r.u.Chunk != nil {
			b.WriteString(r.u.Chunk.Text)
		}
	}
	return b.String()
}

// TestGemini: with TANDEM_PROVIDER=gemini, `tandem acp` streams from
// streamGenerateContent with the key in x-goog-api-key (never the URL);
// thoughts reach the editor as thought chunks; the thought signature is
// kept in the session file and, after a restart and session/load, sent
// back on the part it came with.
func TestGemini(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Reasoning: []string{"weigh ", "it"}, Signature: "CiQB-gemini-sig", Text: []string{"first answer"}},
		llmtest.Reply{Text: []string{"second answer"}})
	home := t.TempDir()
	const key = "AIzaSyTANDEM-gemini-test-key-0123"
	start := func() *tandemProcess {
		cmd := exec.Command(testenv.Tandem(t), "acp")
		cmd.Env = append(withoutKeys(testenv.ModelEnv(home, srv.URL)), "TANDEM_LOG=debug",
			"TANDEM_PROVIDER=gemini", "GEMINI_API_KEY="+key, "GOOGLE_GEMINI_BASE_URL="+srv.URL, "TANDEM_MODEL=gemini-2.5-pro")
		p := startCmd(t, cmd, srv, home, newEditor(t))
		p.initialize(t, true, true)
		return p
	}
	thinkAcrossRestart(t, start)
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[1].Path != "/v1beta/models/gemini-2.5-pro:streamGenerateContent" {
		t.Fatalf("requests: %d, second to %s", len(reqs), reqs[len(reqs)-1].Path)
	}
	if !strings.Contains(string(reqs[1].Body), `{"role":"model","parts":[{"text":"weigh it","thought":true},{"text":"first answer","thoughtSignature":"CiQB-gemini-sig"}]}`) {
		t.Errorf("the second request does not carry the thought and its signature: %s", reqs[1].Body)
	}
	for _, r := range reqs {
		if r.Header.Get("X-Goog-Api-Key") != key || strings.Contains(r.URL, key) || r.URL != r.Path+"?alt=sse" {
			t.Errorf("request %s: key header %q", r.URL, r.Header.Get("X-Goog-Api-Key"))
		}
	}
}

// TestVertexProfile: config.json names a Vertex profile beside the
// default Gemini API; choosing its model in the session's model option
// sends the next prompt to Vertex's Anthropic endpoint with an access
// token from a service account's key file (via a fake token endpoint).
// The token, even echoed by a failing server, never leaves tandem: not
// in the editor's updates, stderr at debug level or $TANDEM_HOME.
func TestVertexProfile(t *testing.T) {
	srv := llmtest.NewServer(t)
	saPath, tokens := llmtest.ServiceAccount(t)
	home := t.TempDir()
	config := map[string]any{"profiles": map[string]any{"claude": map[string]any{
		"provider": "vertex", "googleApplicationCredentials": saPath, "vertexBaseUrl": srv.URL,
		"googleCloudLocation": "us-east5", "models": []string{"claude-sonnet-4-5@20250929"}}}}
	b, _ := json.Marshal(config)
	if err := os.WriteFile(filepath.Join(home, "config.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	// The token the fake endpoint will issue first (llmtest's shape).
	token := "ya29.c.llmtest-0-" + strings.Repeat("t", 40)
	srv.Enqueue(llmtest.Reply{Reasoning: []string{"plan"}, Text: []string{"gemini here"}},
		llmtest.Reply{Status: 400, Message: "backend refused token " + token},
		llmtest.Reply{Reasoning: []string{"claude thinks"}, Text: []string{"claude here"}})
	cmd := exec.Command(testenv.Tandem(t), "acp")
	cmd.Env = append(withoutKeys(testenv.ModelEnv(home, srv.URL)), "TANDEM_LOG=debug",
		"TANDEM_PROVIDER=gemini", "GEMINI_API_KEY=AIzaSyTANDEM-profile-test-0123", "GOOGLE_GEMINI_BASE_URL="+srv.URL)
	p := startCmd(t, cmd, srv, home, newEditor(t))
	p.initialize(t, true, true)
	dir := workspace(t, nil)
	ns, err := p.conn.NewSession(ctxT(t), sdk.NewSessionRequest{Cwd: dir, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	if got := modelValues(ns.ConfigOptions); !slices.Contains(got, "gemini-2.5-pro") || !slices.Contains(got, "claude-sonnet-4-5@20250929") {
		t.Fatalf("models offered: %q", got)
	}
	sid := ns.SessionId
	if _, err := p.prompt(t, sid, "hello gemini"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.conn.SetSessionConfigOption(ctxT(t), sdk.SetSessionConfigOptionRequest{ValueId: &sdk.SetSessionConfigOptionValueId{
		SessionId: sid, ConfigId: "model", Value: "claude-sonnet-4-5@20250929"}}); err != nil {
		t.Fatal(err)
	}
	// A refusal echoing the token reaches the editor masked.
	if _, err := p.prompt(t, sid, "hello claude"); err == nil || strings.Contains(err.Error(), token) || !strings.Contains(err.Error(), "backend refused token [redacted]") {
		t.Fatalf("the refused prompt: %v", err)
	}
	if _, err := p.prompt(t, sid, "hello again"); err != nil {
		t.Fatal(err)
	}
	if got := p.ed.agentText(sid); !strings.Contains(got, "gemini here") || !strings.Contains(got, "claude here") {
		t.Errorf("agent text %q", got)
	}
	if got := thoughtText(p, sid); got != "planclaude thinks" {
		t.Errorf("thoughts %q", got)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 || reqs[0].Format != llmtest.Gemini || reqs[1].Format != llmtest.VertexAnthropic ||
		reqs[2].Path != "/v1/projects/sa-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict" {
		t.Fatalf("%d requests: %+v", len(reqs), reqs)
	}
	if issued := tokens.Issued(); len(issued) != 1 || issued[0] != token || reqs[2].Header.Get("Authorization") != "Bearer "+token {
		t.Errorf("issued %q, sent %q", issued, reqs[2].Header.Get("Authorization"))
	}
	// The history moved providers: Gemini's turn reaches Claude as text.
	if last := reqs[2].Messages; len(last) < 3 || last[1].Role != "assistant" || last[1].Content[len(last[1].Content)-1].Text != "gemini here" {
		t.Errorf("claude's history = %+v", last)
	}
	p.closeAndWait(t)
	var all strings.Builder
	for _, u := range p.ed.sessionUpdates(sid) {
		all.WriteString(u.raw)
	}
	all.WriteString(p.stderr.String())
	filepath.WalkDir(home, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(path)
			all.Write(b)
		}
		return nil
	})
	if strings.Contains(all.String(), "llmtest-0-tttt") {
		t.Errorf("the access token left tandem")
	}

}
