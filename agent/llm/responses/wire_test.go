package responses_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/compact"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/llm/responses"
)

func setup(t *testing.T) (*llmtest.Server, *responses.Provider) {
	t.Helper()
	t.Parallel()
	srv := llmtest.NewServer(t)
	return srv, responses.New(responses.Options{BaseURL: srv.BaseURL(llmtest.Responses), APIKey: "sk-test",
		Transport: llm.Transport{Retry: llm.RetryPolicy{MaxAttempts: 1}}})
}

func stream(t *testing.T, p llm.Provider, req *llm.Request) ([]llm.Event, *llm.Response, error) {
	t.Helper()
	var evs []llm.Event
	resp, err := p.Stream(context.Background(), req, func(e llm.Event) { evs = append(evs, e) })
	return evs, resp, err
}

// body decodes a recorded request body into generic JSON.
func body(t *testing.T, r *llmtest.Request) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(r.Body, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// A reasoning model's encrypted reasoning goes back in the next request's
// input, exactly as it came, and nothing is stored on the server's side.
func TestReasoningCarriedToTheNextRequest(t *testing.T) {
	srv, p := setup(t)
	srv.Enqueue(llmtest.Reply{Reasoning: []string{"plan ", "it"}, Signature: "gAAAA-opaque==", ToolCalls: []llmtest.ToolCall{{ID: "call_a", Name: "read_file", Args: `{"path":"a"}`}}},
		llmtest.Reply{Text: []string{"done"}})
	req := &llm.Request{Model: "o4-mini", System: "sys", Effort: llm.EffortHigh, CacheKey: "sess-1", MaxTokens: 100,
		Messages: []llm.Message{llm.Text(llm.RoleUser, "go")}}
	_, resp, err := stream(t, p, req)
	if err != nil {
		t.Fatal(err)
	}
	th := resp.Message.Content[0]
	if th.Type != llm.PartThinking || th.Text != "plan it" || th.Signature() != "gAAAA-opaque==" {
		t.Fatalf("first part = %+v, want the reasoning with its encrypted content", th)
	}
	// The history goes through the session file as JSON.
	saved, _ := json.Marshal(resp.Message)
	var back llm.Message
	if err := json.Unmarshal(saved, &back); err != nil {
		t.Fatal(err)
	}
	req.Messages = append(req.Messages, back, llm.Message{Role: llm.RoleUser, Content: []llm.Part{{Type: llm.PartToolResult, ToolCallID: "call_a", Text: "file a"}}})
	if _, _, err := stream(t, p, req); err != nil {
		t.Fatal(err)
	}
	first := body(t, srv.Requests()[0])
	if first["store"] != false || first["prompt_cache_key"] != "sess-1" || first["instructions"] != "sys" || first["max_output_tokens"] != 100.0 {
		t.Errorf("request fields = %v", first)
	}
	if inc, _ := first["include"].([]any); len(inc) != 1 || inc[0] != "reasoning.encrypted_content" {
		t.Errorf("include = %v", first["include"])
	}
	if r, _ := first["reasoning"].(map[string]any); r["effort"] != "high" || r["summary"] != "auto" {
		t.Errorf("reasoning = %v", first["reasoning"])
	}
	input := body(t, srv.Requests()[1])["input"].([]any)
	var types []string
	for _, it := range input {
		types = append(types, it.(map[string]any)["type"].(string))
	}
	if strings.Join(types, ",") != "message,reasoning,function_call,function_call_output" {
		t.Fatalf("input item types = %v", types)
	}
	rs := input[1].(map[string]any)
	if rs["encrypted_content"] != "gAAAA-opaque==" || rs["id"] != nil {
		t.Errorf("reasoning item sent back = %v, want the encrypted content and no id (store:false keeps none)", rs)
	}
	if fc := input[2].(map[string]any); fc["call_id"] != "call_a" || fc["arguments"] != `{"path":"a"}` {
		t.Errorf("function call sent back = %v", fc)
	}
}

// A reasoning item with several summary parts streams them apart and is
// sent back with the parts as they came.
func TestSummaryPartsReplayedAsSent(t *testing.T) {
	srv, p := setup(t)
	summary := `[{"type":"summary_text","text":"one"},{"type":"summary_text","text":"two"}]`
	srv.Enqueue(llmtest.Reply{Raw: sse(
		`{"type":"response.output_item.added","output_index":0,"item":{"id":"rs_1","type":"reasoning","summary":[]}}`,
		`{"type":"response.reasoning_summary_text.delta","output_index":0,"summary_index":0,"delta":"one"}`,
		`{"type":"response.reasoning_summary_text.delta","output_index":0,"summary_index":1,"delta":"two"}`,
		`{"type":"response.output_item.done","output_index":0,"item":{"id":"rs_1","type":"reasoning","summary":`+summary+`,"encrypted_content":"enc"}}`,
		`{"type":"response.output_text.delta","output_index":1,"delta":"hi"}`,
		`{"type":"response.completed","response":{"status":"completed","usage":{"input_tokens":50,"input_tokens_details":{"cached_tokens":40},"output_tokens":7,"output_tokens_details":{"reasoning_tokens":5}}}}`)},
		llmtest.Reply{Text: []string{"ok"}})
	req := &llm.Request{Model: "gpt-5", Messages: []llm.Message{llm.Text(llm.RoleUser, "q")}}
	evs, resp, err := stream(t, p, req)
	if err != nil {
		t.Fatal(err)
	}
	var thought []string
	for _, e := range evs {
		if e.Type == llm.EventReasoning {
			thought = append(thought, e.Text)
		}
	}
	if strings.Join(thought, "|") != "one|\n\n|two" {
		t.Errorf("reasoning deltas = %q", thought)
	}
	if want := (llm.Usage{InputTokens: 10, CacheReadTokens: 40, OutputTokens: 7, ReasoningTokens: 5}); resp.Usage != want {
		t.Errorf("usage = %+v, want %+v", resp.Usage, want)
	}
	if len(resp.Message.Content) != 2 || resp.Message.Content[0].Text != "one\n\ntwo" || resp.Message.Content[1].Text != "hi" {
		t.Fatalf("message = %+v", resp.Message.Content)
	}
	req.Messages = append(req.Messages, resp.Message, llm.Text(llm.RoleUser, "more"))
	if _, _, err := stream(t, p, req); err != nil {
		t.Fatal(err)
	}
	if b := string(srv.Requests()[1].Body); !strings.Contains(b, `{"type":"reasoning","summary":`+summary+`,"encrypted_content":"enc"}`) {
		t.Errorf("second request does not carry the summary parts as sent: %s", b)
	}
}

func sse(events ...string) string {
	var b strings.Builder
	for _, e := range events {
		var v struct{ Type string }
		json.Unmarshal([]byte(e), &v)
		b.WriteString("event: " + v.Type + "\ndata: " + e + "\n\n")
	}
	return b.String()
}

func TestImagesInPrompt(t *testing.T) {
	srv, p := setup(t)
	srv.Enqueue(llmtest.Reply{Text: []string{"a cat"}})
	req := &llm.Request{Model: "gpt-4.1", Messages: []llm.Message{{Role: llm.RoleUser, Content: []llm.Part{{Type: llm.PartText, Text: "what is this"}, llm.Image("image/png", "iVBORw0K")}}}}
	if _, _, err := stream(t, p, req); err != nil {
		t.Fatal(err)
	}
	got := srv.Requests()[0]
	if !strings.Contains(string(got.Body), `{"type":"input_image","image_url":"data:image/png;base64,iVBORw0K"}`) {
		t.Errorf("body = %s", got.Body)
	}
	if c := got.Messages[0].Content; len(c) != 2 || c[1].Type != llm.PartImage || c[1].MediaType() != "image/png" || c[1].Data() != "iVBORw0K" {
		t.Errorf("decoded user message = %+v", c)
	}
	if _, ok := body(t, got)["reasoning"]; ok {
		t.Errorf("a model that does not reason was sent reasoning fields: %s", got.Body)
	}
}

// Each of the API's failures reaches tandem as the kind the agent acts on.
func TestErrorKinds(t *testing.T) {
	t.Run("overflow answered with HTTP 400", func(t *testing.T) {
		srv, p := setup(t)
		srv.LimitContext("", 10)
		_, _, err := stream(t, p, &llm.Request{Model: "gpt-5", Messages: []llm.Message{llm.Text(llm.RoleUser, strings.Repeat("long ", 100))}})
		if !compact.IsOverflow(err) {
			t.Errorf("err = %v, want an overflow", err)
		}
	})
	failed := func(code, msg string) string {
		return sse(`{"type":"response.created","response":{"status":"in_progress"}}`,
			`{"type":"response.failed","response":{"status":"failed","error":{"code":"`+code+`","message":"`+msg+`"}}}`)
	}
	cases := []struct {
		name      string
		raw       string
		status    int
		retryable bool
		overflow  bool
	}{
		{"overflow in response.failed", failed("context_length_exceeded", "Your input exceeds the context window of this model."), 400, false, true},
		{"rate limit in response.failed", failed("rate_limit_exceeded", "Rate limit reached"), 429, true, false},
		{"server error in response.failed", failed("server_error", "An error occurred"), 500, true, false},
		{"error event", sse(`{"type":"error","code":"server_is_overloaded","message":"try again","param":null}`), 500, true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv, p := setup(t)
			srv.Enqueue(llmtest.Reply{Raw: c.raw})
			_, _, err := stream(t, p, &llm.Request{Model: "gpt-5", Messages: []llm.Message{llm.Text(llm.RoleUser, "x")}})
			var e *llm.Error
			if !errors.As(err, &e) || e.Status != c.status || e.Retryable != c.retryable || compact.IsOverflow(err) != c.overflow || e.Provider != "openai" {
				t.Errorf("err = %v (%+v), want status %d retryable %v overflow %v", err, e, c.status, c.retryable, c.overflow)
			}
		})
	}
	t.Run("refused content", func(t *testing.T) {
		srv, p := setup(t)
		srv.Enqueue(llmtest.Reply{Raw: sse(
			`{"type":"response.output_item.added","output_index":0,"item":{"id":"m","type":"message","content":[]}}`,
			`{"type":"response.refusal.delta","output_index":0,"delta":"I can't help with that."}`,
			`{"type":"response.output_item.done","output_index":0,"item":{"id":"m","type":"message","content":[{"type":"refusal","refusal":"I can't help with that."}]}}`,
			`{"type":"response.completed","response":{"status":"completed"}}`)})
		_, resp, err := stream(t, p, &llm.Request{Model: "gpt-5", Messages: []llm.Message{llm.Text(llm.RoleUser, "x")}})
		if err != nil || resp.StopReason != llm.StopRefusal || resp.Message.Content[0].Text != "I can't help with that." {
			t.Errorf("resp = %+v, err %v; want a refusal with its text", resp, err)
		}
	})
}

// Reasoning with no summary (the model chose not to summarise) still has
// encrypted content the next request needs.
func TestReasoningWithoutSummaryCarried(t *testing.T) {
	srv, p := setup(t)
	srv.Enqueue(llmtest.Reply{Raw: sse(
		`{"type":"response.output_item.added","output_index":0,"item":{"id":"rs_1","type":"reasoning","summary":[]}}`,
		`{"type":"response.output_item.done","output_index":0,"item":{"id":"rs_1","type":"reasoning","summary":[],"encrypted_content":"enc-silent"}}`,
		`{"type":"response.output_item.added","output_index":1,"item":{"id":"fc_1","type":"function_call","call_id":"c1","name":"list_files","arguments":""}}`,
		`{"type":"response.function_call_arguments.delta","output_index":1,"item_id":"fc_1","delta":"{}"}`,
		`{"type":"response.output_item.done","output_index":1,"item":{"id":"fc_1","type":"function_call","call_id":"c1","name":"list_files","arguments":"{}"}}`,
		`{"type":"response.completed","response":{"status":"completed"}}`)},
		llmtest.Reply{Text: []string{"ok"}})
	req := &llm.Request{Model: "o3", Messages: []llm.Message{llm.Text(llm.RoleUser, "q")}}
	_, resp, err := stream(t, p, req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StopReason != llm.StopToolUse || len(resp.Message.Content) != 2 {
		t.Fatalf("response = %+v", resp)
	}
	req.Messages = append(req.Messages, resp.Message, llm.Message{Role: llm.RoleUser, Content: []llm.Part{{Type: llm.PartToolResult, ToolCallID: "c1", Text: "a.go"}}})
	if _, _, err := stream(t, p, req); err != nil {
		t.Fatal(err)
	}
	if b := string(srv.Requests()[1].Body); !strings.Contains(b, `{"type":"reasoning","summary":[],"encrypted_content":"enc-silent"},{"type":"function_call","call_id":"c1"`) {
		t.Errorf("second request = %s", b)
	}
}
