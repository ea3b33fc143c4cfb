package gemini_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/compact"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/anthropic"
	"github.com/tandemhq/tandem/agent/llm/gemini"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

func setup(t *testing.T) (*llmtest.Server, *gemini.Provider) {
	t.Helper()
	t.Parallel()
	srv := llmtest.NewServer(t)
	return srv, gemini.New(gemini.Options{BaseURL: srv.URL, APIKey: "AIzaTEST-key-0123456789",
		Transport: llm.Transport{Retry: llm.RetryPolicy{MaxAttempts: 1}}})
}

func stream(t *testing.T, p llm.Provider, req *llm.Request) ([]llm.Event, *llm.Response, error) {
	t.Helper()
	var evs []llm.Event
	resp, err := p.Stream(context.Background(), req, func(e llm.Event) { evs = append(evs, e) })
	return evs, resp, err
}

// sse is a recorded-shape stream: one GenerateContentResponse per event.
func sse(chunks ...string) string {
	var b strings.Builder
	for _, c := range chunks {
		b.WriteString("data: " + c + "\r\n\r\n")
	}
	return b.String()
}

// Thought signatures stay on the part they came with and go back there:
// on the first of parallel function calls, and alone in the last chunk's
// empty text part (which joins the text before it). Calls Gemini gave no
// id get one of tandem's, which is not sent back.
func TestSignaturesCarriedWhereTheyCame(t *testing.T) {
	srv, p := setup(t)
	srv.Enqueue(llmtest.Reply{Raw: sse(
		`{"candidates":[{"content":{"parts":[{"text":"**Planning** the reads","thought":true}],"role":"model"},"index":0}],"usageMetadata":{"promptTokenCount":120,"totalTokenCount":120},"modelVersion":"gemini-2.5-pro","responseId":"r1"}`,
		`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"read_file","args":{"path":"a.go"}},"thoughtSignature":"CiQB-sig-one"},{"functionCall":{"name":"read_file","args":{"path":"b.go"}}}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":120,"candidatesTokenCount":30,"thoughtsTokenCount":50,"cachedContentTokenCount":100,"totalTokenCount":200},"modelVersion":"gemini-2.5-pro","responseId":"r1"}`)},
		llmtest.Reply{Raw: sse(
			`{"candidates":[{"content":{"parts":[{"text":"Both files "}],"role":"model"},"index":0}]}`,
			`{"candidates":[{"content":{"parts":[{"text":"look fine."}],"role":"model"},"index":0}]}`,
			`{"candidates":[{"content":{"parts":[{"text":"","thoughtSignature":"CiQB-sig-two"}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":300,"candidatesTokenCount":5,"totalTokenCount":305}}`)},
		llmtest.Reply{Text: []string{"ok"}})
	req := &llm.Request{Model: "gemini-2.5-pro", System: "sys", Messages: []llm.Message{llm.Text(llm.RoleUser, "review")}}
	evs, resp, err := stream(t, p, req)
	if err != nil {
		t.Fatal(err)
	}
	c := resp.Message.Content
	if len(c) != 3 || c[0].Type != llm.PartThinking || c[0].Text != "**Planning** the reads" || c[1].Signature() != "CiQB-sig-one" || c[2].Signature() != "" {
		t.Fatalf("parts = %+v", c)
	}
	if c[1].ToolCallID == c[2].ToolCallID || !strings.HasPrefix(c[1].ToolCallID, "call_") || resp.StopReason != llm.StopToolUse {
		t.Errorf("call ids %q %q, stop %s", c[1].ToolCallID, c[2].ToolCallID, resp.StopReason)
	}
	if want := (llm.Usage{InputTokens: 20, CacheReadTokens: 100, OutputTokens: 80, ReasoningTokens: 50}); resp.Usage != want {
		t.Errorf("usage = %+v, want %+v", resp.Usage, want)
	}
	if evs[0].Type != llm.EventReasoning {
		t.Errorf("first event = %+v, want the thought", evs[0])
	}
	// Through the session file and back.
	saved, _ := json.Marshal(resp.Message)
	var back llm.Message
	if err := json.Unmarshal(saved, &back); err != nil {
		t.Fatal(err)
	}
	req.Messages = append(req.Messages, back, llm.Message{Role: llm.RoleUser, Content: []llm.Part{
		{Type: llm.PartToolResult, ToolCallID: c[1].ToolCallID, ToolName: "read_file", Text: "package a"},
		{Type: llm.PartToolResult, ToolCallID: c[2].ToolCallID, Text: "no such file", IsError: true}}})
	_, resp2, err := stream(t, p, req)
	if err != nil {
		t.Fatal(err)
	}
	if c := resp2.Message.Content; len(c) != 1 || c[0].Text != "Both files look fine." || c[0].Signature() != "CiQB-sig-two" {
		t.Fatalf("second answer = %+v", c)
	}
	body := string(srv.Requests()[1].Body)
	for _, want := range []string{
		`{"role":"model","parts":[{"text":"**Planning** the reads","thought":true},{"functionCall":{"name":"read_file","args":{"path":"a.go"}},"thoughtSignature":"CiQB-sig-one"},{"functionCall":{"name":"read_file","args":{"path":"b.go"}}}]}`,
		`{"role":"user","parts":[{"functionResponse":{"name":"read_file","response":{"output":"package a"}}},{"functionResponse":{"name":"read_file","response":{"error":"no such file"}}}]}`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("second request lacks %s:\n%s", want, body)
		}
	}
	req.Messages = append(req.Messages, resp2.Message, llm.Text(llm.RoleUser, "thanks"))
	if _, _, err := stream(t, p, req); err != nil {
		t.Fatal(err)
	}
	if b := string(srv.Requests()[2].Body); !strings.Contains(b, `{"role":"model","parts":[{"text":"Both files look fine.","thoughtSignature":"CiQB-sig-two"}]}`) {
		t.Errorf("third request = %s", b)
	}
	r0 := srv.Requests()[0]
	if !strings.HasSuffix(r0.URL, "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse") || r0.Header.Get("X-Goog-Api-Key") != "AIzaTEST-key-0123456789" {
		t.Errorf("url %s, key header %q", r0.URL, r0.Header.Get("X-Goog-Api-Key"))
	}
	if !strings.Contains(string(r0.Body), `"systemInstruction":{"parts":[{"text":"sys"}]}`) || !strings.Contains(string(r0.Body), `"thinkingConfig":{"includeThoughts":true}`) {
		t.Errorf("first body = %s", r0.Body)
	}
}

func TestImagesAndThinkingLevels(t *testing.T) {
	srv, p := setup(t)
	srv.Handle(func(*llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: []string{"a cat"}} })
	img := llm.Image("image/png", "iVBORw0K")
	res := llm.Part{Type: llm.PartToolResult, ToolCallID: "c1", ToolName: "screenshot", Text: "taken"}
	res.Rare().Images = []llm.Part{llm.Image("image/jpeg", "/9j/4AAQ")}
	msgs := []llm.Message{
		{Role: llm.RoleUser, Content: []llm.Part{{Type: llm.PartText, Text: "what is this"}, img}},
		{Role: llm.RoleAssistant, Content: []llm.Part{{Type: llm.PartToolUse, ToolCallID: "c1", ToolName: "screenshot", Input: json.RawMessage(`{}`)}}},
		{Role: llm.RoleUser, Content: []llm.Part{res}},
	}
	cases := []struct {
		model  string
		effort llm.Effort
		want   string
	}{
		{"gemini-2.5-flash", llm.EffortHigh, `{"maxOutputTokens":32768,"thinkingConfig":{"includeThoughts":true,"thinkingBudget":24576}}`},
		{"gemini-2.5-flash", llm.EffortOff, `"thinkingConfig":{"includeThoughts":false,"thinkingBudget":0}`},
		{"gemini-2.5-pro", llm.EffortOff, `"thinkingConfig":{"includeThoughts":true,"thinkingBudget":128}`},
		{"gemini-3-pro-preview", llm.EffortLow, `"thinkingConfig":{"includeThoughts":true,"thinkingLevel":"low"}`},
		{"gemini-2.0-flash", llm.EffortHigh, `{"generationConfig":{"maxOutputTokens":50},"contents":[`},
	}
	for i, c := range cases {
		if _, _, err := stream(t, p, &llm.Request{Model: c.model, Effort: c.effort, MaxTokens: 50, Messages: msgs}); err != nil {
			t.Fatal(err)
		}
		got := srv.Requests()[i]
		if !strings.Contains(string(got.Body), c.want) {
			t.Errorf("%s %s: body lacks %s: %s", c.model, c.effort, c.want, got.Body)
		}
		if i > 0 {
			continue
		}
		if !strings.Contains(string(got.Body), `{"text":"what is this"},{"inlineData":{"mimeType":"image/png","data":"iVBORw0K"}}`) ||
			!strings.Contains(string(got.Body), `{"functionResponse":{"name":"screenshot","response":{"output":"taken"}}},{"text":"Images returned by tool call c1:"},{"inlineData":{"mimeType":"image/jpeg","data":"/9j/4AAQ"}}`) {
			t.Errorf("images not sent: %s", got.Body)
		}
		if p := got.Messages[0].Content[1]; p.Type != llm.PartImage || p.MediaType() != "image/png" {
			t.Errorf("decoded image = %+v", p)
		}
	}
}

// Each of Gemini's failures reaches tandem as the kind the agent acts on.
func TestErrorKinds(t *testing.T) {
	q := &llm.Request{Model: "gemini-2.5-flash", Messages: []llm.Message{llm.Text(llm.RoleUser, "x")}}
	t.Run("overflow", func(t *testing.T) {
		srv, p := setup(t)
		srv.LimitContext("", 10)
		_, _, err := stream(t, p, &llm.Request{Model: "gemini-2.5-pro", Messages: []llm.Message{llm.Text(llm.RoleUser, strings.Repeat("long ", 100))}})
		r, ok := compact.Refused(err)
		if !compact.IsOverflow(err) || !ok || r.Limit != 10 {
			t.Errorf("err = %v (%+v), want an overflow stating the limit", err, r)
		}
	})
	t.Run("invalid key is a refused credential", func(t *testing.T) {
		srv, p := setup(t)
		srv.Enqueue(llmtest.Reply{Status: 400, Body: `{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com","metadata":{"service":"generativelanguage.googleapis.com"}}]}}`})
		_, _, err := stream(t, p, q)
		var e *llm.Error
		if !errors.As(err, &e) || e.KeyEnv != "GEMINI_API_KEY" || !strings.Contains(err.Error(), "check GEMINI_API_KEY") {
			t.Errorf("err = %v", err)
		}
	})
	block := func(finish string) string {
		return sse(`{"candidates":[{"content":{"parts":[{"text":"I will"}],"role":"model"},"index":0}]}`,
			`{"candidates":[{"content":{"parts":[],"role":"model"},"finishReason":"`+finish+`","index":0}],"usageMetadata":{"promptTokenCount":5,"candidatesTokenCount":2,"totalTokenCount":7}}`)
	}
	for _, finish := range []string{"SAFETY", "RECITATION", "PROHIBITED_CONTENT"} {
		t.Run(finish+" is refused content", func(t *testing.T) {
			srv, p := setup(t)
			srv.Enqueue(llmtest.Reply{Raw: block(finish)})
			_, resp, err := stream(t, p, q)
			if err != nil || resp.StopReason != llm.StopRefusal {
				t.Errorf("resp %+v err %v", resp, err)
			}
		})
	}
	t.Run("blocked prompt", func(t *testing.T) {
		srv, p := setup(t)
		srv.Enqueue(llmtest.Reply{Raw: sse(`{"promptFeedback":{"blockReason":"SAFETY","safetyRatings":[]},"usageMetadata":{"promptTokenCount":8,"totalTokenCount":8}}`)})
		_, resp, err := stream(t, p, q)
		if err != nil || resp.StopReason != llm.StopRefusal || !strings.Contains(resp.Message.Content[0].Text, "blocked (SAFETY)") {
			t.Errorf("resp %+v err %v", resp, err)
		}
	})
	t.Run("malformed call says why", func(t *testing.T) {
		srv, p := setup(t)
		srv.Enqueue(llmtest.Reply{Raw: sse(`{"candidates":[{"content":{"parts":[],"role":"model"},"finishReason":"MALFORMED_FUNCTION_CALL","finishMessage":"Malformed function call: print(x","index":0}]}`)})
		_, resp, err := stream(t, p, q)
		if err != nil || resp.StopReason != llm.StopEndTurn || resp.Message.Content[0].Text != "Gemini stopped (MALFORMED_FUNCTION_CALL): Malformed function call: print(x" {
			t.Errorf("resp %+v err %v", resp, err)
		}
	})
	t.Run("max tokens", func(t *testing.T) {
		srv, p := setup(t)
		srv.Enqueue(llmtest.Reply{Raw: block("MAX_TOKENS")})
		if _, resp, err := stream(t, p, q); err != nil || resp.StopReason != llm.StopMaxTokens || resp.Message.Content[0].Text != "I will" {
			t.Errorf("resp %+v err %v", resp, err)
		}
	})
	t.Run("in-stream errors", func(t *testing.T) {
		for _, c := range []struct {
			body      string
			status    int
			retryable bool
		}{
			{`{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}}`, 429, true},
			{`{"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}}`, 503, true},
			{`{"error":{"code":400,"message":"Request contains an invalid argument.","status":"INVALID_ARGUMENT"}}`, 400, false},
		} {
			t.Run(fmt.Sprint(c.status), func(t *testing.T) {
				srv, p := setup(t)
				srv.Enqueue(llmtest.Reply{Raw: sse(`{"candidates":[{"content":{"parts":[{"text":"a"}],"role":"model"},"index":0}]}`, c.body)})
				_, _, err := stream(t, p, q)
				var e *llm.Error
				if !errors.As(err, &e) || e.Status != c.status || e.Retryable != c.retryable || e.Provider != "gemini" {
					t.Errorf("%s: err = %v (%+v)", c.body, err, e)
				}
			})
		}
	})
}

// A session that moved between model families (profiles) carries the
// others' thinking: Gemini gets none of it, nor their signatures, and
// Anthropic none of Gemini's.
func TestOtherFamiliesThinkingLeftOut(t *testing.T) {
	srv, p := setup(t)
	srv.Handle(func(*llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: []string{"ok"}} })
	history := []llm.Message{llm.Text(llm.RoleUser, "q"),
		{Role: llm.RoleAssistant, Content: []llm.Part{
			{Type: llm.PartThinking, Text: "claude thought", PartRare: &llm.PartRare{Signature: "ErUBCkYIBxgCIkA-claude", Origin: llm.OriginAnthropic}},
			{Type: llm.PartThinking, Text: "gemini thought", PartRare: &llm.PartRare{Origin: llm.OriginGoogle}},
			{Type: llm.PartText, Text: "answer", PartRare: &llm.PartRare{Signature: "CiQB-gemini", Origin: llm.OriginGoogle}}}},
		llm.Text(llm.RoleUser, "more")}
	if _, _, err := stream(t, p, &llm.Request{Model: "gemini-2.5-pro", Messages: history}); err != nil {
		t.Fatal(err)
	}
	if b := string(srv.Requests()[0].Body); strings.Contains(b, "claude") || !strings.Contains(b, `{"role":"model","parts":[{"text":"gemini thought","thought":true},{"text":"answer","thoughtSignature":"CiQB-gemini"}]}`) {
		t.Errorf("gemini body = %s", b)
	}
	ant := anthropic.New(anthropic.Options{BaseURL: srv.URL, APIKey: "k"})
	if _, _, err := stream(t, ant, &llm.Request{Model: "claude-sonnet-4-5", Messages: history}); err != nil {
		t.Fatal(err)
	}
	if b := string(srv.Requests()[1].Body); strings.Contains(b, "gemini thought") || strings.Contains(b, "CiQB") || !strings.Contains(b, `"signature":"ErUBCkYIBxgCIkA-claude"`) {
		t.Errorf("anthropic body = %s", b)
	}
}
