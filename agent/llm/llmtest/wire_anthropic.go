package llmtest

import "fmt"

// writeAnthropic streams reply as Messages API events.
func writeAnthropic(s *stream, reply *Reply, req *Request) {
	u := reply.usage()
	startUsage := map[string]int{"input_tokens": u.InputTokens, "output_tokens": 1,
		"cache_read_input_tokens": u.CacheReadTokens, "cache_creation_input_tokens": u.CacheWriteTokens}
	ok := s.event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": fmt.Sprintf("msg_%d", req.N), "type": "message", "role": "assistant", "model": req.Model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": startUsage,
	}}) && s.event("ping", map[string]string{"type": "ping"})

	index := 0
	block := func(start map[string]any, deltas []map[string]any) bool {
		if !ok {
			return false
		}
		ok = s.event("content_block_start", map[string]any{"type": "content_block_start", "index": index, "content_block": start})
		for _, d := range deltas {
			ok = ok && s.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": index, "delta": d})
		}
		ok = ok && s.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": index})
		index++
		return ok
	}
	if reply.RedactedThinking != "" {
		block(map[string]any{"type": "redacted_thinking", "data": reply.RedactedThinking}, nil)
	}
	if len(reply.Reasoning) > 0 {
		var ds []map[string]any
		for _, c := range reply.Reasoning {
			ds = append(ds, map[string]any{"type": "thinking_delta", "thinking": c})
		}
		ds = append(ds, map[string]any{"type": "signature_delta", "signature": reply.signature()})
		block(map[string]any{"type": "thinking", "thinking": "", "signature": ""}, ds)
	}
	if text := reply.text(req); len(text) > 0 {
		var ds []map[string]any
		for _, c := range text {
			ds = append(ds, map[string]any{"type": "text_delta", "text": c})
		}
		block(map[string]any{"type": "text", "text": ""}, ds)
	}
	for i, tc := range reply.ToolCalls {
		var ds []map[string]any
		for _, c := range chunks(tc.Args, tc.Split) {
			ds = append(ds, map[string]any{"type": "input_json_delta", "partial_json": c})
		}
		block(map[string]any{"type": "tool_use", "id": reply.callID(req, i), "name": tc.Name, "input": map[string]any{}}, ds)
	}
	if s.stops(ok, reply, func() {
		s.event("error", map[string]any{"type": "error", "error": map[string]string{"type": "overloaded_error", "message": reply.StreamError}})
	}) {
		return
	}
	// The neutral stop reasons are Anthropic's own names, so no mapping.
	stop := reply.stop()
	_ = s.event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]int{"output_tokens": u.OutputTokens}}) &&
		s.event("message_stop", map[string]string{"type": "message_stop"})
}
