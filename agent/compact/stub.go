package compact

import (
	"fmt"
	"strings"

	"github.com/tandemhq/tandem/agent/llm"
)

// stubMin is the smallest output worth stubbing: a stub costs about as
// much as a short output, and short outputs (errors, "wrote 3 lines")
// carry the most meaning per byte.
const stubMin = 400

// StubPrefix starts every stub, so a later compaction (and a reader of the
// log) can tell a stub from an output.
const StubPrefix = "[output removed to save context: "

// stub replaces tool outputs of h[:end] by a stub, oldest first, until the
// history is within target; tok is kept up to date with count. It returns
// how many it replaced.
func stub(h []llm.Message, tok []int, target, end int, count func(llm.Message) int) int {
	total := sum(tok)
	if total <= target {
		return 0
	}
	calls := toolCalls(h)
	n := 0
	for i := 0; i < end && i < len(h) && total > target; i++ {
		if h[i].Role != llm.RoleUser {
			continue
		}
		changed := false
		for j, p := range h[i].Content {
			if p.Type != llm.PartToolResult || len(p.Text) < stubMin || strings.HasPrefix(p.Text, StubPrefix) {
				continue
			}
			p = p.WithoutImages()
			p.Text = stubText(calls[p.ToolCallID], p)
			h[i].Content[j] = p
			changed = true
			n++
		}
		if changed {
			total -= tok[i]
			tok[i] = count(h[i])
			total += tok[i]
		}
	}
	return n
}

// stubText says what the output was and how to get it again.
func stubText(call llm.Part, result llm.Part) string {
	name := call.ToolName
	if name == "" {
		name = result.ToolName
	}
	args := strings.TrimSpace(string(call.Input))
	if len(args) > 200 {
		args = args[:200] + "…"
	}
	how := fmt.Sprintf("call %s again with the same arguments if you need it", name)
	switch name {
	case "run_command":
		how = "run the command again if you need its output"
	case "read_file":
		how = "read the file again if you need it; it may have changed since"
	}
	if name == "" {
		how = "repeat the call if you need it"
	}
	status := ""
	if result.IsError {
		status = " (it was an error)"
	}
	return fmt.Sprintf("%s%s %s returned %d bytes%s; %s]", StubPrefix, name, args, len(result.Text), status, how)
}

// toolCalls indexes the history's tool_use parts by call id.
func toolCalls(h []llm.Message) map[string]llm.Part {
	calls := map[string]llm.Part{}
	for _, m := range h {
		for _, p := range m.Content {
			if p.Type == llm.PartToolUse {
				calls[p.ToolCallID] = p
			}
		}
	}
	return calls
}
