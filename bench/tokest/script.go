package main

import (
	"fmt"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// prompts are the user's turns of the scripted session.
var prompts = []string{
	"How does a session turn work, from the prompt to the last update? Point me at the code.",
	"Where is token usage recorded, and how would compaction find out the context window?",
	"Look at how the OpenAI provider parses the stream and tell me whether tool call arguments can arrive split.",
	"Summarise what we found in a short list I can paste into the design notes.",
}

var nCall int

func read(path string) llmtest.ToolCall {
	nCall++
	return llmtest.ToolCall{ID: fmt.Sprintf("call_%02d", nCall), Name: "read_file", Args: fmt.Sprintf(`{"path":%q}`, path)}
}

func tool(name, args string) llmtest.ToolCall {
	nCall++
	return llmtest.ToolCall{ID: fmt.Sprintf("call_%02d", nCall), Name: name, Args: args}
}

func say(s string) llmtest.Reply { return llmtest.Reply{Text: []string{s}} }

func calls(text string, c ...llmtest.ToolCall) llmtest.Reply {
	r := llmtest.Reply{ToolCalls: c}
	if text != "" {
		r.Text = []string{text}
	}
	return r
}

// script is the model's side: exploring this repository with the read
// tools, then answering in prose, as a coding model does.
func script() []llmtest.Reply {
	return []llmtest.Reply{
		calls("I'll start with the package documentation and the actor.", read("agent/doc.go"), read("agent/actor.go")),
		calls("", tool("search_files", `{"pattern":"func \\(t \\*turnRun\\)","path":"agent"}`)),
		calls("The turn itself lives in turn.go; the FIFO in outbox.go.", read("agent/turn.go"), read("agent/outbox.go")),
		say("A prompt enters through `Session.Prompt` (agent/actor.go), which asks the actor to begin a turn. " +
			"`beginTurn` lends the turn the history and the instructions tracker, then `turnRun.run` calls the " +
			"turn-start seam, `steps`, and the turn-end seam. `converse` loops: `request` streams one model response " +
			"(its chunks become updates through `emit`), tool calls run in `runTools`, and their results go back as a " +
			"user message. Every update passes the session's one FIFO (`outbox.go`), which also appends it to the log, " +
			"so the last update is on the wire before `Prompt` returns."),
		calls("", read("agent/usage.go"), read("agent/llm/models/window.go")),
		calls("", tool("list_code_definition_names", `{"path":"agent/llm/models"}`), read("agent/pipeline.go")),
		say("Usage is accounted in `turnRun.accountUsage` right after each response: it calibrates the estimator, " +
			"appends a versioned `usage` record to the log and emits a `usage_update`. Compaction can read the window " +
			"and the estimate from `RequestEvent` at the before-request seam: `Window` comes from `models.Windows` " +
			"(environment, config.json, what the server reported, the built-in table, then 32k)."),
		calls("", read("agent/llm/openai/stream.go")),
		calls("", tool("search_files", `{"pattern":"toolDelta","path":"agent/llm"}`), read("agent/llm/openai/request.go")),
		say("Yes: `toolDelta` matches fragments by index, then by id, then to the latest call, and `endCalls` checks " +
			"the joined arguments are valid JSON only once the finish reason arrives. Split arguments are the normal case."),
		say("- Turns: actor lends history to a turn goroutine; updates leave through one FIFO.\n" +
			"- Usage: recorded per request in the log; usage_update after each request; estimate at the before-request seam.\n" +
			"- OpenAI stream: arguments arrive in fragments and are validated at the end.\n"),
	}
}
