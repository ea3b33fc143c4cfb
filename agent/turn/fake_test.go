package turn_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/llm/models"
	"github.com/tandemhq/tandem/agent/llm/openai"
	"github.com/tandemhq/tandem/agent/tools"
	"github.com/tandemhq/tandem/agent/turn"
)

// session is a small implementation of the package's own interfaces
// (its contract), recording what the turn asked of it in order. The model
// behind the turn is real: an llmtest server through the openai provider.
type session struct {
	t   *testing.T
	mu  sync.Mutex
	log []string // what the turn did, in order

	history []llm.Message
	tools   []tools.Tool
	hidden  tools.Group // a group the mode does not offer

	chunks   []string
	onChunk  func(text string)
	stopWhy  []string // the stop seam's answers, in turn
	steered  []llm.Part
	reached  string
	compacts int
	refused  []turn.Sent
	full     bool // CompactIfFull finds the history over the threshold
}

func newSession(t *testing.T, tls ...tools.Tool) *session {
	return &session{t: t, tools: tls}
}

// config points a turn at srv through the real openai provider.
func config(srv *llmtest.Server, maxRequests int) turn.Config {
	p := openai.New(openai.Options{BaseURL: srv.BaseURL(llmtest.OpenAI),
		Transport: llm.Transport{Retry: llm.RetryPolicy{MaxAttempts: 1}}})
	return turn.Config{Provider: p, MaxRequests: maxRequests, Compact: true}
}

func (s *session) note(format string, a ...any) {
	s.mu.Lock()
	s.log = append(s.log, fmt.Sprintf(format, a...))
	s.mu.Unlock()
}

func (s *session) steps() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.log...)
}

func (s *session) History() []llm.Message { return s.history }
func (s *session) Append(m llm.Message)   { s.history = append(s.history, m) }

func (s *session) Settings() turn.Settings {
	return turn.Settings{Model: "test-model", System: "be brief", CacheKey: "s1", MaxTokens: 100, Mode: "ask",
		Tools: s.tools, Exposes: func(g tools.Group) bool { return g != s.hidden }}
}

func (s *session) Chunk(id, text string, thought bool) {
	if id == "" {
		s.t.Error("a chunk without a message id")
	}
	if thought {
		text = "(" + text + ")"
	}
	s.mu.Lock()
	s.chunks = append(s.chunks, text)
	s.mu.Unlock()
	if s.onChunk != nil {
		s.onChunk(text)
	}
}

func (s *session) Estimate(m models.Measure) int { return 1000 }

func (s *session) Measure(req *llm.Request) models.Measure { return models.MeasureOf(req) }

func (s *session) CompactIfFull(model string, estimate int) (bool, error) {
	if !s.full {
		return false, nil
	}
	s.full = false
	s.compacts++
	s.history = s.history[len(s.history)-1:]
	return true, nil
}

func (s *session) CompactOverflow(refusal error) error {
	s.compacts++
	s.note("compact after overflow")
	return nil
}

func (s *session) Refused(err error, sent turn.Sent) { s.refused = append(s.refused, sent) }
func (s *session) Overflow(err error) error          { return fmt.Errorf("still too long: %w", err) }

func (s *session) BeforeRequest(ctx context.Context, req *llm.Request, estimate int) (bool, error) {
	s.note("request %d tools", len(req.Tools))
	return false, nil
}

func (s *session) AfterResponse(ctx context.Context, req *llm.Request, m models.Measure, estimate int, resp *llm.Response) {
	s.note("response %s", resp.StopReason)
}

func (s *session) BeforeStop(ctx context.Context, continued int) string {
	s.note("stop seam %d", continued)
	if len(s.stopWhy) == 0 {
		return ""
	}
	why := s.stopWhy[0]
	s.stopWhy = s.stopWhy[1:]
	return why
}

func (s *session) Reached(touched []string) string {
	if len(touched) == 0 {
		return ""
	}
	return s.reached + strings.Join(touched, ",")
}

func (s *session) Steer() []llm.Part {
	p := s.steered
	s.steered = nil
	return p
}

func (s *session) Refuse(call llm.Part, input json.RawMessage, kind tools.Kind, msg string) {
	s.note("refuse %s", call.ToolName)
}

func (s *session) NextGroup() { s.note("group") }

func (s *session) Open(call llm.Part, tool tools.Tool, input json.RawMessage) turn.Call {
	s.note("open %s", call.ToolCallID)
	return &call1{s: s, id: call.ToolCallID}
}

// call1 is one call's side, recording its steps.
type call1 struct {
	s       *session
	id      string
	started sync.Once
}

func (c *call1) Before(ctx context.Context, input json.RawMessage) (json.RawMessage, error) {
	c.s.note("before %s", c.id)
	return input, nil
}
func (c *call1) Start()          { c.started.Do(func() { c.s.note("start %s", c.id) }) }
func (c *call1) Env() *tools.Env { return &tools.Env{CallID: c.id} }
func (c *call1) After(ctx context.Context, res tools.Result) tools.Result {
	res.Output += " (seen)"
	return res
}
func (c *call1) Report(res tools.Result)      { c.s.note("report %s", c.id) }
func (c *call1) Fail(msg string, cause error) { c.s.note("fail %s: %s", c.id, msg) }

// tool is a tool for the loop to call: run decides its result.
type tool struct {
	name  string
	group tools.Group
	run   func(ctx context.Context, env *tools.Env, input json.RawMessage) (tools.Result, error)
}

func (t *tool) Info() tools.Info {
	return tools.Info{Name: t.name, Group: t.group, Description: t.name, Schema: json.RawMessage(`{"type":"object"}`)}
}
func (t *tool) Describe(string, json.RawMessage) tools.Preview { return tools.Preview{Title: t.name} }
func (t *tool) Run(ctx context.Context, env *tools.Env, input json.RawMessage) (tools.Result, error) {
	return t.run(ctx, env, input)
}

// echo is a tool answering with its input, touching "path".
func echo(name string, g tools.Group) *tool {
	return &tool{name: name, group: g, run: func(ctx context.Context, env *tools.Env, input json.RawMessage) (tools.Result, error) {
		var a struct{ Path string }
		json.Unmarshal(input, &a)
		return tools.Result{Output: name + " " + a.Path, Touched: []string{a.Path}}, nil
	}}
}

// texts is the text of m's parts, joined.
func texts(m llm.Message) string {
	var b []string
	for _, p := range m.Content {
		if p.Text != "" {
			b = append(b, p.Text)
		}
	}
	return strings.Join(b, "|")
}

func user(text string) llm.Message { return llm.Text(llm.RoleUser, text) }
