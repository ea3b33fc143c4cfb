package acp

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/mcp"
	"github.com/tandemhq/tandem/agent/store"
)

// storedAgent is an agent over a store holding n sessions in cwd (titles
// "task 0".."task n-1", newest last) and one elsewhere.
func storedAgent(t *testing.T, cwd string, n int) *agent.Agent {
	t.Helper()
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	add := func(id, dir, title string, at time.Time) {
		l, err := st.Create(store.Meta{ID: id, Cwd: dir, Title: title, Created: at, Updated: at})
		if err != nil {
			t.Fatal(err)
		}
		l.Close()
	}
	for i := 0; i < n; i++ {
		add(fmt.Sprintf("s_%03d", i), cwd, fmt.Sprintf("task %d", i), base.Add(time.Duration(i)*time.Minute))
	}
	add("s_other", t.TempDir(), "elsewhere", base)
	return agent.New(agent.Config{Home: t.TempDir(), Store: st})
}

func TestListSessionsPages(t *testing.T) {
	cwd := t.TempDir()
	c := newRawClient(t, storedAgent(t, cwd, 55))
	c.alive("init")
	first := result(t, c.request("l1", "session/list", map[string]any{"cwd": cwd}))
	sessions := first["sessions"].([]any)
	if len(sessions) != listPageSize {
		t.Fatalf("first page has %d sessions, want %d", len(sessions), listPageSize)
	}
	newest := sessions[0].(map[string]any)
	if newest["sessionId"] != "s_054" || newest["title"] != "task 54" || newest["cwd"] != cwd || newest["updatedAt"] != "2026-01-01T00:54:00Z" {
		t.Errorf("newest session listed as %v", newest)
	}
	cursor, _ := first["nextCursor"].(string)
	if cursor == "" {
		t.Fatal("no nextCursor on a full page")
	}
	second := result(t, c.request("l2", "session/list", map[string]any{"cwd": cwd, "cursor": cursor}))
	rest := second["sessions"].([]any)
	if len(rest) != 5 || second["nextCursor"] != nil {
		t.Errorf("second page: %d sessions, cursor %v", len(rest), second["nextCursor"])
	}
	seen := map[any]bool{}
	for _, s := range append(sessions, rest...) {
		seen[s.(map[string]any)["sessionId"]] = true
	}
	if len(seen) != 55 || seen["s_other"] {
		t.Errorf("pages hold %d distinct sessions (other cwd included: %v)", len(seen), seen["s_other"])
	}
	all := result(t, c.request("l3", "session/list", map[string]any{}))
	if got := len(all["sessions"].([]any)); got != listPageSize {
		t.Errorf("unfiltered first page %d", got)
	}
	if code := errorCode(t, c.request("l4", "session/list", map[string]any{"cursor": "s_gone"})); code != -32602 {
		t.Errorf("unknown cursor: code %d", code)
	}
}

func TestResumeSession(t *testing.T) {
	cwd := t.TempDir()
	c := newRawClient(t, storedAgent(t, cwd, 1))
	c.alive("init")
	r := result(t, c.request("r1", "session/resume", map[string]any{"sessionId": "s_000", "cwd": cwd}))
	if r["modes"] == nil || r["configOptions"] == nil {
		t.Errorf("resume answered %v", r)
	}
	if early := c.notifications("session/update"); len(early) != 0 {
		t.Errorf("updates arrived before the resume response: %v", early)
	}
	upd := c.waitFor("available_commands_update", func(m map[string]any) bool { return m["method"] == "session/update" })
	if upd["params"].(map[string]any)["sessionId"] != "s_000" {
		t.Errorf("update for %v", upd)
	}
	result(t, c.request("r2", "session/set_mode", map[string]any{"sessionId": "s_000", "modeId": "ask"}))
	if code := errorCode(t, c.request("r3", "session/resume", map[string]any{"sessionId": "s_nope", "cwd": cwd})); code != codeResourceNotFound {
		t.Errorf("resuming an unknown session: code %d", code)
	}
}

func TestMCPServersConversion(t *testing.T) {
	in := []sdk.McpServer{
		{Stdio: &sdk.McpServerStdio{Name: "files", Command: "/bin/srv", Args: []string{"-v"}, Env: []sdk.EnvVariable{{Name: "K", Value: "V"}}}},
		{Http: &sdk.McpServerHttpInline{Name: "web", Url: "http://127.0.0.1:9/mcp", Headers: []sdk.HttpHeader{{Name: "A", Value: "b"}}, Type: "http"}},
		{Sse: &sdk.McpServerSseInline{Name: "events", Url: "http://127.0.0.1:9/sse", Headers: []sdk.HttpHeader{}, Type: "sse"}},
	}
	got, err := mcpServers(in)
	if err != nil {
		t.Fatal(err)
	}
	want := []mcp.Server{
		{Name: "files", Type: mcp.TypeStdio, Command: "/bin/srv", Args: []string{"-v"}, Env: []mcp.NameValue{{Name: "K", Value: "V"}}},
		{Name: "web", Type: mcp.TypeHTTP, URL: "http://127.0.0.1:9/mcp", Headers: []mcp.NameValue{{Name: "A", Value: "b"}}},
		{Name: "events", Type: mcp.TypeSSE, URL: "http://127.0.0.1:9/sse"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("converted\n got %+v\nwant %+v", got, want)
	}
}
