package models_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/models"
)

// A Sizer measures every request as MeasureOf does, whatever happened to
// the history since the last: appends, a rewind, a compaction's copy, a
// message replaced, the head changed.
func TestSizerMatchesMeasureOf(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	msg := func(i int) llm.Message {
		m := llm.Text(llm.RoleUser, strings.Repeat("x", rng.IntN(50)))
		switch rng.IntN(4) {
		case 0:
			m.Content = append(m.Content, llm.Image("image/png", "R0lGODlh"))
		case 1:
			m.Content = nil
		case 2:
			m.Role = llm.RoleAssistant
			m.Content = append(m.Content, llm.Part{Type: llm.PartToolUse, ToolName: "read", ToolCallID: fmt.Sprint("c", i), Input: []byte(`{"path":"a.go"}`)})
		}
		return m
	}
	var z models.Sizer
	req := &llm.Request{Model: "m", System: "be brief"}
	for step := range 2000 {
		var what string
		switch h := req.Messages; rng.IntN(10) {
		case 0:
			what = "rewind"
			req.Messages = slices.Clip(h[:rng.IntN(len(h)+1)])
		case 1:
			what = "compaction's copy"
			c := make([]llm.Message, len(h))
			for i, m := range h {
				c[i] = llm.Message{Role: m.Role, Content: slices.Clone(m.Content)}
				if len(c[i].Content) > 0 && rng.IntN(3) == 0 {
					c[i].Content[0].Text = "[stub]"
				}
			}
			req.Messages = c
		case 2:
			if len(h) > 0 {
				what = "message replaced"
				h[rng.IntN(len(h))] = msg(step)
			}
		case 3:
			what = "head changed"
			req.System = strings.Repeat("s", rng.IntN(20))
		default:
			what = "append"
			req.Messages = append(h, msg(step))
		}
		if got, want := z.Measure(req), models.MeasureOf(req); got != want {
			t.Fatalf("step %d (%s): Sizer measured %+v, MeasureOf %+v", step, what, got, want)
		}
	}
}
