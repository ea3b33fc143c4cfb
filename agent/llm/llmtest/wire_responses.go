package llmtest

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/tandemhq/tandem/agent/llm"
)

// writeResponses streams reply as the Responses API does: typed events,
// each named in its "event:" line and its "type" field, with a
// sequence_number, an output item per reasoning summary, message and
// function call (added, deltas, done), then response.completed (or
// response.incomplete for max_tokens and refusal) carrying usage.
// Reasoning items carry encrypted_content, which a client must send back.
func writeResponses(s *stream, reply *Reply, req *Request) {
	id := fmt.Sprintf("resp_%d", req.N)
	seq := 0
	send := func(typ string, fields map[string]any) bool {
		fields["type"], fields["sequence_number"] = typ, seq
		seq++
		return s.event(typ, fields)
	}
	resp := func(status string) map[string]any {
		return map[string]any{"id": id, "object": "response", "created_at": 1700000000, "status": status, "model": req.Model, "output": []any{}, "store": false}
	}
	ok := send("response.created", map[string]any{"response": resp("in_progress")}) &&
		send("response.in_progress", map[string]any{"response": resp("in_progress")})
	out := 0
	if len(reply.Reasoning) > 0 {
		rid := fmt.Sprintf("rs_%d", req.N)
		text := strings.Join(reply.Reasoning, "")
		ok = ok && send("response.output_item.added", map[string]any{"output_index": out, "item": map[string]any{"id": rid, "type": "reasoning", "summary": []any{}}}) &&
			send("response.reasoning_summary_part.added", map[string]any{"item_id": rid, "output_index": out, "summary_index": 0, "part": map[string]any{"type": "summary_text", "text": ""}})
		for _, c := range reply.Reasoning {
			ok = ok && send("response.reasoning_summary_text.delta", map[string]any{"item_id": rid, "output_index": out, "summary_index": 0, "delta": c, "obfuscation": "xyz"})
		}
		summary := []any{map[string]any{"type": "summary_text", "text": text}}
		ok = ok && send("response.reasoning_summary_text.done", map[string]any{"item_id": rid, "output_index": out, "summary_index": 0, "text": text}) &&
			send("response.output_item.done", map[string]any{"output_index": out, "item": map[string]any{"id": rid, "type": "reasoning", "summary": summary, "encrypted_content": reply.encrypted(req)}})
		out++
	}
	if texts := reply.text(req); len(texts) > 0 {
		mid := fmt.Sprintf("msg_%d", req.N)
		ok = ok && send("response.output_item.added", map[string]any{"output_index": out, "item": map[string]any{"id": mid, "type": "message", "status": "in_progress", "role": "assistant", "content": []any{}}}) &&
			send("response.content_part.added", map[string]any{"item_id": mid, "output_index": out, "content_index": 0, "part": map[string]any{"type": "output_text", "text": "", "annotations": []any{}}})
		for _, c := range texts {
			ok = ok && send("response.output_text.delta", map[string]any{"item_id": mid, "output_index": out, "content_index": 0, "delta": c, "logprobs": []any{}, "obfuscation": "xyz"})
		}
		full := strings.Join(texts, "")
		if !ok || reply.Hang || reply.StreamError != "" || reply.NoFinish {
			// The message is still open when the stream stops.
		} else {
			part := map[string]any{"type": "output_text", "text": full, "annotations": []any{}}
			ok = send("response.output_text.done", map[string]any{"item_id": mid, "output_index": out, "content_index": 0, "text": full}) &&
				send("response.content_part.done", map[string]any{"item_id": mid, "output_index": out, "content_index": 0, "part": part}) &&
				send("response.output_item.done", map[string]any{"output_index": out, "item": map[string]any{"id": mid, "type": "message", "status": "completed", "role": "assistant", "content": []any{part}}})
		}
		out++
	}
	for i, tc := range reply.ToolCalls {
		fid, callID := fmt.Sprintf("fc_%d_%d", req.N, i), reply.callID(req, i)
		item := func(status, args string) map[string]any {
			return map[string]any{"id": fid, "type": "function_call", "status": status, "call_id": callID, "name": tc.Name, "arguments": args}
		}
		ok = ok && send("response.output_item.added", map[string]any{"output_index": out, "item": item("in_progress", "")})
		pieces := chunks(tc.Args, tc.Split)
		if reply.WholeCalls {
			pieces = []string{tc.Args}
		}
		for _, piece := range pieces {
			if piece != "" {
				ok = ok && send("response.function_call_arguments.delta", map[string]any{"item_id": fid, "output_index": out, "delta": piece, "obfuscation": "xyz"})
			}
		}
		ok = ok && send("response.function_call_arguments.done", map[string]any{"item_id": fid, "output_index": out, "arguments": tc.Args}) &&
			send("response.output_item.done", map[string]any{"output_index": out, "item": item("completed", tc.Args)})
		out++
	}
	if s.stops(ok, reply, func() {
		send("error", map[string]any{"code": cmp.Or(reply.StreamErrorCode, "server_error"), "message": reply.StreamError, "param": nil})
	}) {
		return
	}
	u := reply.usage()
	final := resp("completed")
	final["usage"] = map[string]any{"input_tokens": u.InputTokens + u.CacheReadTokens, "output_tokens": u.OutputTokens,
		"total_tokens":          u.InputTokens + u.CacheReadTokens + u.OutputTokens,
		"input_tokens_details":  map[string]int{"cached_tokens": u.CacheReadTokens},
		"output_tokens_details": map[string]int{"reasoning_tokens": u.ReasoningTokens}}
	typ := "response.completed"
	switch llm.StopReason(reply.stop()) {
	case llm.StopMaxTokens:
		typ, final["status"], final["incomplete_details"] = "response.incomplete", "incomplete", map[string]string{"reason": "max_output_tokens"}
	case llm.StopRefusal:
		typ, final["status"], final["incomplete_details"] = "response.incomplete", "incomplete", map[string]string{"reason": "content_filter"}
	}
	send(typ, map[string]any{"response": final})
}

// encrypted is the reasoning item's encrypted_content: Signature when
// scripted, else one made from the reasoning, so a test can check that
// the client sent it back unchanged.
func (r *Reply) encrypted(req *Request) string {
	if r.Signature != "" {
		return r.Signature
	}
	return fmt.Sprintf("enc-%d-%d", req.N, len(strings.Join(r.Reasoning, "")))
}
