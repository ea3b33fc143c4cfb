package acp

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/anthropic"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// acpSchema returns a validator for one definition of the official ACP
// schema (the unstable one, where Usage lives), checked strictly as the
// wire check does (wireSchema).
func acpSchema(t *testing.T, def string) *jsonschema.Resolved {
	t.Helper()
	return resolveDef(t, loadWireSchema(t), def)
}

// acpStableSchema is acpSchema for the stable schema.
func acpStableSchema(t *testing.T, def string) *jsonschema.Resolved {
	t.Helper()
	return resolveDef(t, loadWireSchema(t).stable, def)
}

func resolveDef(t *testing.T, w *wireSchema, def string) *jsonschema.Resolved {
	t.Helper()
	rs, err := w.def(def)
	if err != nil {
		t.Fatalf("resolving %s of the ACP schema: %v", def, err)
	}
	return rs
}

func validate(t *testing.T, rs *jsonschema.Resolved, what string, v any) {
	t.Helper()
	b, _ := json.Marshal(v)
	var inst any
	json.Unmarshal(b, &inst)
	if err := rs.Validate(inst); err != nil {
		t.Errorf("%s does not match the ACP schema: %v\n%s", what, err, b)
	}
}

// TestUsageMatchesSchema runs a two-request turn and checks the wire: a
// usage_update after each request and usage on the prompt response (for a
// client of the unstable schema, the one that has it), each valid against
// the official schema and carrying the right figures.
func TestUsageMatchesSchema(t *testing.T) {
	notification, response := acpSchema(t, "SessionNotification"), acpSchema(t, "PromptResponse")
	srv := llmtest.NewServer(t)
	u1 := llm.Usage{InputTokens: 500, OutputTokens: 40, CacheWriteTokens: 2000}
	u2 := llm.Usage{InputTokens: 100, OutputTokens: 20, CacheReadTokens: 2500, CacheWriteTokens: 60}
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "p", Name: "update_plan", Args: `{"plan":[{"content":"x","status":"pending"}]}`}}, Usage: &u1},
		llmtest.Reply{Text: []string{"done"}, Usage: &u2},
	)
	a := agent.New(agent.Config{Home: t.TempDir(), Model: "claude-haiku-4-5",
		Provider: anthropic.New(anthropic.Options{APIKey: "k", BaseURL: srv.BaseURL(llmtest.Anthropic)})})
	c := newRawClient(t, a)
	result(t, c.request("1", "initialize", unstableInitParams()))
	sid := result(t, c.request("2", "session/new", map[string]any{"cwd": t.TempDir(), "mcpServers": []any{}}))["sessionId"]
	r := result(t, c.request("3", "session/prompt", map[string]any{"sessionId": sid,
		"prompt": []any{map[string]any{"type": "text", "text": "go"}}}))

	validate(t, response, "the prompt response", r)
	got, _ := json.Marshal(r["usage"])
	// inputTokens counts cached tokens too; the cache fields are parts of it.
	want := `{"cachedReadTokens":2500,"cachedWriteTokens":2060,"inputTokens":5160,"outputTokens":60,"totalTokens":5220}`
	if string(got) != want {
		t.Errorf("usage = %s, want %s", got, want)
	}

	var updates []map[string]any
	for _, n := range c.notifications("session/update") {
		params := n["params"].(map[string]any)
		if params["update"].(map[string]any)["sessionUpdate"] == "usage_update" {
			validate(t, notification, "a usage_update", params)
			updates = append(updates, params["update"].(map[string]any))
		}
	}
	if len(updates) != 2 {
		t.Fatalf("%d usage_update notifications, want one per request", len(updates))
	}
	// 100+2500+60 input and 20 output in context; haiku 4.5's window; the
	// cost of both requests at haiku's list price ($1, $5, $0.10, $1.25 per
	// million input, output, cache-read and cache-write tokens).
	last := updates[1]
	cost := last["cost"].(map[string]any)
	amount, _ := cost["amount"].(json.Number).Float64()
	if last["used"] != json.Number("2680") || last["size"] != json.Number("200000") || cost["currency"] != "USD" || math.Abs(amount-0.003725) > 1e-12 {
		t.Errorf("last usage_update = %v, want used 2680, size 200000, $0.003725", last)
	}

	// The validator is not a rubber stamp: a usage_update without its size fails.
	bad := map[string]any{"sessionId": sid, "update": map[string]any{"sessionUpdate": "usage_update", "used": 1}}
	if b, _ := json.Marshal(bad); notification.Validate(mustJSON(b)) == nil {
		t.Error("the schema accepted a usage_update without size")
	}
}

func mustJSON(b []byte) any {
	var v any
	json.Unmarshal(b, &v)
	return v
}
