package bedrock_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/tandemhq/tandem/agent/compact"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/bedrock"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

const claude = "us.anthropic.claude-sonnet-4-20250514-v1:0"

func fastRetry() llm.Transport {
	return llm.Transport{Retry: llm.RetryPolicy{MaxAttempts: 3, Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }}}
}

func provider(srv *llmtest.Server, secret, token string) *bedrock.Provider {
	return bedrock.New(bedrock.Options{Transport: fastRetry(), Region: llmtest.AWSRegion, Endpoint: srv.BaseURL(llmtest.Bedrock),
		Credentials: credentials.NewStaticCredentialsProvider(llmtest.AWSAccessKeyID, secret, token)})
}

func stream(p llm.Provider, req *llm.Request) (*llm.Response, error) {
	return p.Stream(context.Background(), req, func(llm.Event) {})
}

// The fake verifies each request by signing it again with the AWS SDK's
// signer; a wrong secret is refused as Bedrock refuses it, and neither the
// secret nor the session token shows in the error.
func TestSignatureIsChecked(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Text: []string{"signed"}})
	const token = "IQoJb3JpZ2luX2VjEXAMPLEsessionTOKEN0123456789"
	resp, err := stream(provider(srv, llmtest.AWSSecretKey, token), &llm.Request{Model: claude, Messages: []llm.Message{llm.Text(llm.RoleUser, "hi")}})
	if err != nil || resp.Message.Content[0].Text != "signed" {
		t.Fatalf("signed with a session token: %v %+v", err, resp)
	}
	h := srv.Requests()[0].Header
	if h.Get("X-Amz-Security-Token") != token || !strings.Contains(h.Get("Authorization"), "x-amz-security-token") || h.Get("Accept") != "application/vnd.amazon.eventstream" {
		t.Errorf("headers: %v", h)
	}

	const wrong = "wrongSECRETwrongSECRETwrongSECRET0"
	_, err = stream(provider(srv, wrong, token), &llm.Request{Model: claude, Messages: []llm.Message{llm.Text(llm.RoleUser, "hi")}})
	var e *llm.Error
	if !errors.As(err, &e) || e.Status != http.StatusForbidden || !strings.Contains(err.Error(), "InvalidSignatureException: The request signature we calculated does not match") || !strings.Contains(err.Error(), "AWS_PROFILE") {
		t.Fatalf("err = %v, want Bedrock's 403 naming the AWS variables", err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests recorded, want the refused one not among them", n)
	}
}

// A provider error body that quotes the credentials is scrubbed.
func TestCredentialsInErrorsAreScrubbed(t *testing.T) {
	srv := llmtest.NewServer(t)
	const token = "FwoGZXIvYXdzEXAMPLEsessionTOKENabcdef0123"
	srv.Enqueue(llmtest.Reply{Status: 403, Message: "AccessDeniedException: token " + token + " secret " + llmtest.AWSSecretKey},
		llmtest.Reply{Text: []string{"a"}, StreamError: "bad token " + token, StreamErrorCode: "validationException"})
	p := provider(srv, llmtest.AWSSecretKey, token)
	for range 2 {
		_, err := stream(p, &llm.Request{Model: claude, Messages: []llm.Message{llm.Text(llm.RoleUser, "hi")}})
		if err == nil || strings.Contains(err.Error(), token) || strings.Contains(err.Error(), llmtest.AWSSecretKey) || !strings.Contains(err.Error(), "[redacted]") {
			t.Errorf("err = %v, want the token and secret redacted", err)
		}
	}
}

// In-stream exceptions map to the error kinds their HTTP statuses have.
func TestExceptionsMapToKinds(t *testing.T) {
	for _, c := range []struct {
		kind, msg string
		status    int
		retry     bool
		overflow  bool
	}{
		{"throttlingException", "Too many tokens, please wait before trying again.", 429, true, false},
		{"validationException", "Input is too long for requested model.", 400, false, true},
		{"validationException", "prompt is too long: 210000 tokens > 200000 maximum", 400, false, true},
		{"serviceUnavailableException", "Bedrock is unable to process your request.", 503, true, false},
		{"internalServerException", "The server encountered an error.", 500, true, false},
		{"modelStreamErrorException", "The model stream failed.", 500, true, false},
		{"accessDeniedException", "You don't have access to the model with the specified model ID.", 403, false, false},
	} {
		srv := llmtest.NewServer(t)
		srv.Enqueue(llmtest.Reply{Text: []string{"a"}, StreamError: c.msg, StreamErrorCode: c.kind})
		_, err := stream(provider(srv, llmtest.AWSSecretKey, ""), &llm.Request{Model: claude, Messages: []llm.Message{llm.Text(llm.RoleUser, "hi")}})
		var e *llm.Error
		if !errors.As(err, &e) || e.Status != c.status || e.Retryable != c.retry || compact.IsOverflow(err) != c.overflow || !strings.Contains(e.Message, c.kind) {
			t.Errorf("%s: err = %v (%+v), want status %d retryable %v overflow %v", c.kind, err, e, c.status, c.retry, c.overflow)
		}
	}
}

// Over the fake's limit, Bedrock's own ValidationException is an
// overflow compaction recognises.
func TestOverflowIsRecognised(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.LimitContext("", 10)
	_, err := stream(provider(srv, llmtest.AWSSecretKey, ""), &llm.Request{Model: claude, Messages: []llm.Message{llm.Text(llm.RoleUser, strings.Repeat("long ", 500))}})
	if !compact.IsOverflow(err) || !strings.Contains(err.Error(), "Input is too long") {
		t.Fatalf("err = %v, want an overflow", err)
	}
}

// Claude gets cache points after the system prompt, the tools and the
// last message (moving with it), a thinking budget for an effort, its
// id escaped as one path segment; images go as bytes; cache tokens are
// counted.
func TestClaudeRequest(t *testing.T) {
	srv := llmtest.NewServer(t)
	usage := llm.Usage{InputTokens: 20, OutputTokens: 7, CacheReadTokens: 900, CacheWriteTokens: 40}
	srv.Enqueue(llmtest.Reply{Reasoning: []string{"hm"}, ToolCalls: []llmtest.ToolCall{{Name: "read_file", Args: `{"path":"a"}`}, {Name: "read_file", Args: `{"path":"b"}`}}, Usage: &usage},
		llmtest.Reply{Text: []string{"done"}, Usage: &usage})
	p := provider(srv, llmtest.AWSSecretKey, "")
	req := &llm.Request{Model: claude, System: "sys", MaxTokens: 4000, Effort: llm.EffortLow,
		Tools:    []llm.ToolSpec{{Name: "read_file", Description: "Read.", InputSchema: json.RawMessage(`{"type":"object"}`)}},
		Messages: []llm.Message{{Role: llm.RoleUser, Content: []llm.Part{{Type: llm.PartText, Text: "look"}, llm.Image("image/png", "iVBORw0KGgo=")}}}}
	resp, err := stream(p, req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Usage != usage || resp.StopReason != llm.StopToolUse || len(resp.ToolCalls()) != 2 {
		t.Fatalf("resp = %+v", resp)
	}
	if th := resp.Message.Content[0]; th.Type != llm.PartThinking || th.Origin() != llm.OriginAnthropic {
		t.Errorf("thinking = %+v, want Anthropic's family", th)
	}
	// Another family's thought (a Gemini turn of the same session) is not
	// sent to Claude.
	resp.Message.Content = append([]llm.Part{{Type: llm.PartThinking, Text: "gemini thought", PartRare: &llm.PartRare{Signature: "CiQB-gemini", Origin: llm.OriginGoogle}}}, resp.Message.Content...)
	req.Messages = append(req.Messages, resp.Message, llm.Message{Role: llm.RoleUser, Content: []llm.Part{
		{Type: llm.PartToolResult, ToolCallID: resp.ToolCalls()[0].ToolCallID, Text: "A", PartRare: &llm.PartRare{Images: []llm.Part{llm.Image("image/jpeg", "/9j/")}}},
		{Type: llm.PartToolResult, ToolCallID: resp.ToolCalls()[1].ToolCallID, Text: "no such file", IsError: true}}})
	if _, err := stream(p, req); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if reqs[0].Model != claude {
		t.Errorf("model %s, want %s", reqs[0].Model, claude)
	}
	body := string(reqs[0].Body)
	for _, want := range []string{
		`{"system":[{"text":"sys"},{"cachePoint":{"type":"default"}}]`,
		`"inferenceConfig":{"maxTokens":4000}`,
		`"additionalModelRequestFields":{"thinking":{"type":"enabled","budget_tokens":2048}}`,
		`{"toolSpec":{"name":"read_file","description":"Read.","inputSchema":{"json":{"type":"object"}}}},{"cachePoint":{"type":"default"}}]`,
		`{"image":{"format":"png","source":{"bytes":"iVBORw0KGgo="}}},{"cachePoint":{"type":"default"}}]}]}`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("first body lacks %s:\n%s", want, body)
		}
	}
	if err := llmtest.AppendOnly(llmtest.Bedrock, reqs[0].Body, reqs[1].Body); err != nil {
		t.Error(err)
	}
	if n := strings.Count(string(reqs[1].Body), `"cachePoint"`); n != 3 {
		t.Errorf("second body has %d cache points, want 3 (system, tools, last message)", n)
	}
	sent := reqs[1].Messages
	th := sent[1].Content[0]
	if th.Type != llm.PartThinking || th.Text != "hm" || th.Signature() != "sig-2" {
		t.Errorf("replayed thinking = %+v", th)
	}
	res := sent[2].Content
	if len(res) != 2 || len(res[0].Images()) != 1 || res[0].Images()[0].MediaType() != "image/jpeg" || !res[1].IsError {
		t.Errorf("tool results sent = %+v", res)
	}
}

// An inference profile's ARN is one path segment, signed as sent.
func TestARNModelID(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Text: []string{"ok"}})
	const arn = "arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3"
	if _, err := stream(provider(srv, llmtest.AWSSecretKey, ""), &llm.Request{Model: arn, Messages: []llm.Message{llm.Text(llm.RoleUser, "hi")}}); err != nil {
		t.Fatal(err)
	}
	if got := srv.Requests()[0].Model; got != arn {
		t.Errorf("model = %q, want %q", got, arn)
	}
}
