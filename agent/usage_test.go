package agent

import (
	"context"
	"encoding/json"
	"math"
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/llm/models"
)

func usageUpdates(h *testHost) []ContextUsage {
	var out []ContextUsage
	for _, u := range h.snapshot() {
		if u.Type == UsageUpdated {
			out = append(out, *u.Usage)
		}
	}
	return out
}

// TestUsageAccounting runs a two-request turn on a priced model and checks
// every figure: the usage_update after each request, the turn's and the
// session's totals, the estimate the before-request seam sees, and the
// totals a loaded session restores from its log.
func TestUsageAccounting(t *testing.T) {
	var events []RequestEvent
	f := newFixture(t, func(c *Config) {
		c.Model = "claude-sonnet-4-5"
		c.Windows = &models.Windows{Config: map[string]int{"claude-sonnet-4-5": 150_000}}
		c.Pipeline.BeforeRequest = append(c.Pipeline.BeforeRequest, func(ctx context.Context, e RequestEvent) error {
			events = append(events, e) // requests of one turn are sequential
			return nil
		})
	})
	s, h, _ := f.session(ModeCode, map[string]string{"a.txt": "hello\n"})
	u1 := llm.Usage{InputTokens: 1000, OutputTokens: 200, CacheWriteTokens: 3000}
	u2 := llm.Usage{InputTokens: 300, OutputTokens: 50, CacheReadTokens: 3900}
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c1", "read_file", `{"path":"a.txt"}`)}, Usage: &u1},
		llmtest.Reply{Text: []string{"ok"}, Usage: &u2},
	)
	if _, err := s.Prompt(context.Background(), prompt("read a.txt")); err != nil {
		t.Fatal(err)
	}
	got := usageUpdates(h)
	if len(got) != 2 {
		t.Fatalf("usage updates = %+v, want 2", got)
	}
	price, _ := models.PriceOf("claude-sonnet-4-5")
	c1, c2 := price.Cost(u1), price.Cost(u2)
	if got[0].Used != 4200 || got[0].Size != 150_000 || got[0].Cost == nil || math.Abs(got[0].Cost.Amount-c1) > 1e-12 {
		t.Errorf("first usage_update = %+v (cost %+v), want used 4200 size 150000 cost %v", got[0], got[0].Cost, c1)
	}
	if got[1].Used != 4250 || got[1].Cost == nil || math.Abs(got[1].Cost.Amount-(c1+c2)) > 1e-12 || got[1].Cost.Currency != "USD" {
		t.Errorf("second usage_update = %+v, want used 4250 and the cumulative cost %v", got[1], c1+c2)
	}
	turn, session := s.Usage()
	want := u1.Add(u2)
	if turn.Usage != want || turn.Requests != 2 || !turn.Priced || session.Usage != want {
		t.Errorf("turn = %+v, session = %+v; want %+v over 2 requests", turn, session, want)
	}
	if r := turn.CacheHitRate(); math.Abs(r-3900.0/8200) > 1e-9 {
		t.Errorf("cache hit rate = %v", r)
	}
	if len(events) != 2 || events[0].Window != 150_000 || events[0].Estimate <= 0 || events[1].Estimate <= events[0].Estimate {
		t.Errorf("before-request events: %+v", events)
	}

	// A second turn starts its own count; the session's keeps adding.
	f.srv.Enqueue(llmtest.Reply{Text: []string{"again"}})
	if _, err := s.Prompt(context.Background(), prompt("again")); err != nil {
		t.Fatal(err)
	}
	turn, session = s.Usage()
	if turn.Requests != 1 || turn.InputTokens != 10 || session.Requests != 3 || session.InputTokens != 1310 {
		t.Errorf("after a second turn: turn %+v, session %+v", turn, session)
	}
	id := s.ID()
	s.Close()

	s2, err := New(f.agent.cfg).LoadSession(context.Background(), SessionOptions{ID: id, Host: &testHost{}})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if _, loaded := s2.Usage(); loaded.Usage != session.Usage || loaded.Requests != 3 {
		t.Errorf("loaded session usage = %+v, want %+v", loaded, session)
	}
}

func TestUsageUnknownPriceAndWindow(t *testing.T) {
	var notices []string
	f := newFixture(t, func(c *Config) {
		c.Windows = &models.Windows{Notice: func(m string) { notices = append(notices, m) }}
	})
	s, h, _ := f.session(ModeCode, nil)
	f.srv.Enqueue(llmtest.Reply{Text: []string{"a"}}, llmtest.Reply{Text: []string{"b"}})
	for range 2 {
		if _, err := s.Prompt(context.Background(), prompt("hi")); err != nil {
			t.Fatal(err)
		}
	}
	got := usageUpdates(h)
	if len(got) != 2 || got[0].Size != models.DefaultContext || got[0].Cost != nil {
		t.Errorf("usage updates = %+v, want the default window and no cost", got)
	}
	if len(notices) != 1 {
		t.Errorf("notices = %q, want exactly one", notices)
	}
	if turn, _ := s.Usage(); turn.Priced {
		t.Errorf("turn on an unpriced model says priced: %+v", turn)
	}
}

func TestUsageUpdateJSON(t *testing.T) {
	u := Update{Type: UsageUpdated, Usage: &ContextUsage{Used: 0, Size: 200_000, Cost: &Cost{Amount: 0.25, Currency: "USD"}}}
	b, err := json.Marshal(u)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"sessionUpdate":"usage_update","used":0,"size":200000,"cost":{"amount":0.25,"currency":"USD"}}`; string(b) != want {
		t.Errorf("JSON = %s, want %s", b, want)
	}
	var back Update
	if err := json.Unmarshal(b, &back); err != nil || back.Usage == nil || *back.Usage.Cost != *u.Usage.Cost || back.Usage.Size != 200_000 {
		t.Errorf("round trip = %+v, %v", back, err)
	}
}
