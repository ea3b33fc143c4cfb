package acp

import (
	"github.com/tandemhq/tandem/agent/sandbox"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestInitialize(t *testing.T) {
	c := newRawClient(t, nil)
	r := result(t, c.request("1", "initialize", map[string]any{
		"protocolVersion":    7, // newer than tandem speaks: it answers 1
		"clientCapabilities": map[string]any{"fs": map[string]any{"readTextFile": true}},
	}))
	want := `{"agentCapabilities":{"_meta":{"claudeCode":{"promptQueueing":true},"tandem":{"promptQueueing":true}},"auth":{"logout":{}},"loadSession":true,"mcpCapabilities":{"http":true,"sse":true},` +
		`"promptCapabilities":{"embeddedContext":true,"image":true},` +
		`"sessionCapabilities":{"additionalDirectories":{},"close":{},"delete":{},"list":{},"resume":{}}},` +
		`"agentInfo":{"_meta":{"tandem":{"sandbox":` + jsonString(sandbox.Summary()) + `}},"name":"tandem","title":"Tandem","version":"test"},"authMethods":[` +
		`{"description":"Set ANTHROPIC_API_KEY (a key from https://console.anthropic.com/settings/keys) in the environment tandem starts in, or run ` + "`tandem login`" + `; then retry.",` +
		`"id":"anthropic-api-key","name":"Anthropic API key"},` +
		`{"description":"Set OPENAI_API_KEY (a key from https://platform.openai.com/api-keys) in the environment tandem starts in, or run ` + "`tandem login`" + `; then retry.",` +
		`"id":"openai-api-key","name":"OpenAI API key"}],"protocolVersion":1}`
	if got := jsonString(r); got != want {
		t.Errorf("initialize result\n got %s\nwant %s", got, want)
	}
}

// TestBadInput sends what a broken or hostile client might, one line at a
// time, and checks each gets the right JSON-RPC error (or none, for
// notifications) while the server keeps answering.
func TestBadInput(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file.txt")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		line string
		id   any // id of the error response; nil: null id
		code int // 0: no response expected
	}{
		{"malformed JSON", `{"jsonrpc":"2.0","id":1,"method":`, nil, -32700},
		{"not JSON at all", `hello`, nil, -32700},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"initialize"}]`, nil, -32600},
		{"scalar", `42`, nil, -32600},
		{"no method no id", `{"jsonrpc":"2.0"}`, nil, -32600},
		{"wrong version", `{"jsonrpc":"1.0","id":"v","method":"initialize","params":{}}`, "v", -32600},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"initialize","params":{}}`, nil, -32600},
		{"method not a string", `{"jsonrpc":"2.0","id":"n","method":7}`, "n", -32600},
		{"empty method", `{"jsonrpc":"2.0","id":"e","method":""}`, "e", -32600},
		{"unknown method", `{"jsonrpc":"2.0","id":"u","method":"session/teleport","params":{}}`, "u", -32601},
		{"unknown extension method", `{"jsonrpc":"2.0","id":"x","method":"_tandem/nothing","params":{}}`, "x", -32601},
		{"wrong param type", `{"jsonrpc":"2.0","id":"w","method":"session/new","params":{"cwd":5,"mcpServers":[]}}`, "w", -32602},
		{"params not an object", `{"jsonrpc":"2.0","id":"p","method":"initialize","params":"hi"}`, "p", -32602},
		{"relative cwd", `{"jsonrpc":"2.0","id":"r","method":"session/new","params":{"cwd":"src","mcpServers":[]}}`, "r", -32602},
		{"missing cwd", `{"jsonrpc":"2.0","id":"m","method":"session/new","params":{"cwd":"/nonexistent/tandem","mcpServers":[]}}`, "m", -32602},
		{"cwd is a file", `{"jsonrpc":"2.0","id":"f","method":"session/new","params":{"cwd":` + jsonString(file) + `,"mcpServers":[]}}`, "f", -32602},
		{"prompt to unknown session", `{"jsonrpc":"2.0","id":"s1","method":"session/prompt","params":{"sessionId":"nope","prompt":[{"type":"text","text":"hi"}]}}`, "s1", codeResourceNotFound},
		{"set_mode unknown session", `{"jsonrpc":"2.0","id":"s2","method":"session/set_mode","params":{"sessionId":"nope","modeId":"ask"}}`, "s2", codeResourceNotFound},
		{"set_config unknown session", `{"jsonrpc":"2.0","id":"s3","method":"session/set_config_option","params":{"sessionId":"nope","configId":"mode","value":"ask"}}`, "s3", codeResourceNotFound},
		{"close unknown session", `{"jsonrpc":"2.0","id":"s4","method":"session/close","params":{"sessionId":"nope"}}`, "s4", codeResourceNotFound},
		{"load unknown session", `{"jsonrpc":"2.0","id":"s5","method":"session/load","params":{"sessionId":"nope","cwd":"/","mcpServers":[]}}`, "s5", codeResourceNotFound},
		{"cancel unknown session", `{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"nope"}}`, nil, 0},
		{"stray response", `{"jsonrpc":"2.0","id":99,"result":{}}`, nil, 0},
		{"authenticate", `{"jsonrpc":"2.0","id":"a","method":"authenticate","params":{"methodId":"x"}}`, "a", -32602},
		{"fork unknown session", `{"jsonrpc":"2.0","id":"k","method":"session/fork","params":{"sessionId":"s","cwd":"/","mcpServers":[]}}`, "k", codeResourceNotFound},
		{"delete unknown session", `{"jsonrpc":"2.0","id":"d","method":"session/delete","params":{"sessionId":"nope"}}`, "d", codeResourceNotFound},
		{"unstable providers", `{"jsonrpc":"2.0","id":"pv","method":"providers/list","params":{}}`, "pv", -32601},
	}
	c := newRawClient(t, nil)
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c.t = t
			c.send(tc.line)
			if tc.code != 0 {
				resp := c.response(tc.id)
				if got := errorCode(t, resp); got != tc.code {
					t.Errorf("error code %d, want %d (%v)", got, tc.code, resp)
				}
			}
			c.alive("alive-" + string(rune('a'+i)))
		})
	}
}

// TestExactIDs: ids come back as sent, however a decoder would mangle them.
func TestExactIDs(t *testing.T) {
	c := newRawClient(t, nil)
	for _, id := range []string{`""`, `"a\u0041\"<&>"`, `9007199254740993`, `123456789012345678901234567890`} {
		c.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"initialize","params":{"protocolVersion":1}}`)
		select {
		case line := <-c.lines:
			if want := `{"jsonrpc":"2.0","id":` + id + `,"result":`; !strings.HasPrefix(string(line), want) {
				t.Errorf("id %s answered %.120s", id, line)
			}
		case <-timeoutC():
			t.Fatalf("no answer for id %s", id)
		}
	}
}

// TestOversizedMessage: a 9 MiB prompt is refused with an error naming the
// limit, and the connection goes on.
func TestOversizedMessage(t *testing.T) {
	c := newRawClient(t, nil)
	big := strings.Repeat("a", 9<<20)
	c.send(`{"jsonrpc":"2.0","id":"big","method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"` + big + `"}]}}`)
	resp := c.response("big")
	if got := errorCode(t, resp); got != -32600 {
		t.Fatalf("code %d, want -32600", got)
	}
	if !contains(jsonString(resp), "8388608-byte limit") {
		t.Errorf("error does not name the limit: %v", resp)
	}
	c.alive("after")
}

func TestNewSessionAnnouncesCommandsAfterResponse(t *testing.T) {
	c := newRawClient(t, nil)
	c.alive("init")
	dir := t.TempDir()
	c.send(`{"jsonrpc":"2.0","id":"new","method":"session/new","params":{"cwd":` + jsonString(dir) + `,"mcpServers":[]}}`)
	// Read strictly in order: the response must come before any update.
	var first map[string]any
	select {
	case line := <-c.lines:
		var err error
		if first, err = decode(line); err != nil {
			t.Fatal(err)
		}
	case <-timeoutC():
		t.Fatal("no answer to session/new")
	}
	r := result(t, first)
	sid, _ := r["sessionId"].(string)
	if sid == "" {
		t.Fatalf("first message after session/new is not its response: %v", first)
	}
	modes := r["modes"].(map[string]any)
	if modes["currentModeId"] != "code" {
		t.Errorf("current mode %v, want code", modes["currentModeId"])
	}
	var ids []string
	for _, m := range modes["availableModes"].([]any) {
		ids = append(ids, m.(map[string]any)["id"].(string))
	}
	if got := strings.Join(ids, ","); got != "ask,code,auto-edit,full-auto" {
		t.Errorf("modes %s", got)
	}
	opts := r["configOptions"].([]any)
	if len(opts) == 0 || opts[0].(map[string]any)["id"] != "mode" {
		t.Errorf("config options lack the mode selector: %v", opts)
	}
	upd := c.waitFor("available_commands_update", func(m map[string]any) bool {
		return m["method"] == "session/update"
	})
	p := upd["params"].(map[string]any)
	if p["sessionId"] != sid {
		t.Errorf("update for session %v, want %s", p["sessionId"], sid)
	}
	u := p["update"].(map[string]any)
	if u["sessionUpdate"] != "available_commands_update" {
		t.Fatalf("first update is %v", u)
	}
	names := map[string]bool{}
	for _, cmd := range u["availableCommands"].([]any) {
		names[cmd.(map[string]any)["name"].(string)] = true
	}
	for _, want := range []string{"init", "instructions", "mode", "model"} {
		if !names[want] {
			t.Errorf("command /%s not advertised: %v", want, u["availableCommands"])
		}
	}
}

func TestModeAndConfigOptions(t *testing.T) {
	c := newRawClient(t, nil)
	c.alive("init")
	sid := result(t, c.request("new", "session/new", map[string]any{"cwd": t.TempDir(), "mcpServers": []any{}}))["sessionId"].(string)

	result(t, c.request("m1", "session/set_mode", map[string]any{"sessionId": sid, "modeId": "ask"}))
	mode := c.waitFor("current_mode_update", func(m map[string]any) bool {
		return m["method"] == "session/update" && strings.Contains(jsonString(m), `"current_mode_update"`)
	})
	if got := mode["params"].(map[string]any)["update"].(map[string]any)["currentModeId"]; got != "ask" {
		t.Errorf("current_mode_update says %v", got)
	}
	cfg := c.waitFor("config_option_update", func(m map[string]any) bool {
		return m["method"] == "session/update" && strings.Contains(jsonString(m), `"config_option_update"`)
	})
	if !strings.Contains(jsonString(cfg), `"currentValue":"ask"`) {
		t.Errorf("config_option_update does not show mode ask: %v", cfg)
	}

	r := result(t, c.request("c1", "session/set_config_option", map[string]any{"sessionId": sid, "configId": "mode", "value": "full-auto"}))
	if !strings.Contains(jsonString(r["configOptions"]), `"currentValue":"full-auto"`) {
		t.Errorf("set_config_option answer: %v", r)
	}
	if code := errorCode(t, c.request("m2", "session/set_mode", map[string]any{"sessionId": sid, "modeId": "yolo"})); code != -32602 {
		t.Errorf("unknown mode: code %d", code)
	}
	if code := errorCode(t, c.request("c2", "session/set_config_option", map[string]any{"sessionId": sid, "configId": "colour", "value": "red"})); code != -32602 {
		t.Errorf("unknown config option: code %d", code)
	}
	if code := errorCode(t, c.request("c3", "session/set_config_option", map[string]any{"sessionId": sid, "configId": "mode", "type": "boolean", "value": true})); code != -32602 {
		t.Errorf("boolean value: code %d", code)
	}
	// close, then the session is gone
	result(t, c.request("x", "session/close", map[string]any{"sessionId": sid}))
	if code := errorCode(t, c.request("m3", "session/set_mode", map[string]any{"sessionId": sid, "modeId": "ask"})); code != codeResourceNotFound {
		t.Errorf("closed session: code %d", code)
	}
}

func TestPromptValidation(t *testing.T) {
	c := newRawClient(t, nil)
	c.alive("init")
	sid := result(t, c.request("new", "session/new", map[string]any{"cwd": t.TempDir(), "mcpServers": []any{}}))["sessionId"].(string)
	for _, tc := range []struct {
		name   string
		prompt any
		code   int
	}{
		{"empty", []any{}, -32602},
		{"audio", []any{map[string]any{"type": "audio", "data": "AAAA", "mimeType": "audio/wav"}}, -32602},
		{"missing", nil, -32602},
	} {
		params := map[string]any{"sessionId": sid}
		if tc.prompt != nil {
			params["prompt"] = tc.prompt
		}
		if code := errorCode(t, c.request("p-"+tc.name, "session/prompt", params)); code != tc.code {
			t.Errorf("%s: code %d, want %d", tc.name, code, tc.code)
		}
	}
	c.alive("after")
}
