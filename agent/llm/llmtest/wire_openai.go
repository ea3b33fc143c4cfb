package llmtest

import (
	"fmt"

	"github.com/tandemhq/tandem/agent/llm"
)

// writeOpenAI streams reply as Chat Completions chunks. Every chunk carries
// fields a client must ignore (system_fingerprint, obfuscation), as real
// servers do.
func writeOpenAI(s *stream, reply *Reply, req *Request) {
	id := fmt.Sprintf("chatcmpl-%d", req.N)
	chunk := func(delta map[string]any, finish any) bool {
		return s.event("", map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": 1700000000, "model": req.Model,
			"system_fingerprint": "fp_llmtest", "obfuscation": "xyz",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": finish}},
		})
	}
	ok := chunk(map[string]any{"role": "assistant", "content": ""}, nil)
	field := reply.ReasoningField
	if field == "" {
		field = "reasoning_content"
	}
	for _, c := range reply.Reasoning {
		ok = ok && chunk(map[string]any{field: c}, nil)
	}
	for _, c := range reply.text(req) {
		ok = ok && chunk(map[string]any{"content": c}, nil)
	}
	for i, tc := range reply.ToolCalls {
		pieces := chunks(tc.Args, tc.Split)
		if reply.WholeCalls {
			pieces = []string{tc.Args}
		}
		for j, piece := range pieces {
			call := map[string]any{"function": map[string]any{"arguments": piece}}
			if j == 0 {
				call["id"], call["type"] = reply.callID(req, i), "function"
				call["function"] = map[string]any{"name": tc.Name, "arguments": piece}
			}
			if !reply.OmitIndex {
				call["index"] = i
			}
			ok = ok && chunk(map[string]any{"tool_calls": []any{call}}, nil)
		}
	}
	if s.stops(ok, reply, func() {
		s.event("", map[string]any{"error": map[string]any{"message": reply.StreamError, "type": "server_error"}})
	}) {
		return
	}
	u := reply.usage()
	usage := map[string]any{"prompt_tokens": u.InputTokens + u.CacheReadTokens, "completion_tokens": u.OutputTokens,
		"total_tokens":              u.InputTokens + u.CacheReadTokens + u.OutputTokens,
		"prompt_tokens_details":     map[string]int{"cached_tokens": u.CacheReadTokens},
		"completion_tokens_details": map[string]int{"reasoning_tokens": u.ReasoningTokens}}
	_ = chunk(map[string]any{}, finishReason(reply.stop())) &&
		s.event("", map[string]any{"id": id, "object": "chat.completion.chunk", "model": req.Model, "choices": []any{}, "usage": usage}) &&
		s.event("", "[DONE]")
}

func finishReason(stop string) string {
	switch llm.StopReason(stop) {
	case llm.StopEndTurn:
		return "stop"
	case llm.StopToolUse:
		return "tool_calls"
	case llm.StopMaxTokens:
		return "length"
	case llm.StopRefusal:
		return "content_filter"
	}
	return stop
}
