package llmtest

import (
	"fmt"

	"github.com/tandemhq/tandem/agent/llm"
)

// ReadEditStep answers the kth request of a benchmarked tool loop of steps
// calls on main.go: read_file, then edit_file bumping the marker "m<j> " on
// the file's first line, and so on; from the steps-th on, the end. The
// in-process benchmarks and bench/editorbench share it, so they measure
// the same turn.
func ReadEditStep(k, steps int) Reply {
	switch {
	case k >= steps:
		return Reply{Text: []string{"done"}}
	case k%2 == 0:
		return Reply{ToolCalls: []ToolCall{{Name: "read_file", Args: `{"path":"main.go"}`}}}
	default:
		j := k / 2 // the edits before this one
		return Reply{ToolCalls: []ToolCall{{Name: "edit_file",
			Args: fmt.Sprintf(`{"path":"main.go","old_string":"m%d ","new_string":"m%d "}`, j, j+1)}}}
	}
}

// ToolResults is how many tool results msgs carry: the step a tool loop's
// request asks for.
func ToolResults(msgs []llm.Message) int {
	n := 0
	for _, m := range msgs {
		for _, p := range m.Content {
			if p.Type == llm.PartToolResult {
				n++
			}
		}
	}
	return n
}
