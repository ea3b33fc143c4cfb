package llmtest

import (
	"bytes"
	"cmp"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"

	"github.com/tandemhq/tandem/agent/llm"
)

// eventFrame encodes one ConverseStream event (or, named "!" plus a type,
// an exception) in AWS's event-stream framing, with the AWS SDK's encoder:
// prelude, headers (:event-type, :content-type, :message-type), the JSON
// payload and the CRCs.
func eventFrame(name string, payload []byte) []byte {
	var m eventstream.Message
	if kind, ok := strings.CutPrefix(name, "!"); ok {
		m.Headers.Set(":message-type", eventstream.StringValue("exception"))
		m.Headers.Set(":exception-type", eventstream.StringValue(kind))
	} else {
		m.Headers.Set(":event-type", eventstream.StringValue(name))
		m.Headers.Set(":message-type", eventstream.StringValue("event"))
	}
	m.Headers.Set(":content-type", eventstream.StringValue("application/json"))
	m.Payload = payload
	var b bytes.Buffer
	if err := eventstream.NewEncoder().Encode(&b, m); err != nil {
		panic(fmt.Sprintf("llmtest: encoding an event-stream frame: %v", err))
	}
	return b.Bytes()
}

// writeBedrock streams reply as ConverseStream does: messageStart; per
// content block its deltas (a reasoning block's text then its signature;
// a tool call opened by contentBlockStart, its input in pieces) and
// contentBlockStop; messageStop with the stop reason; metadata with usage
// and metrics. Every event carries the "p" padding Bedrock adds.
func writeBedrock(s *stream, reply *Reply, req *Request) {
	pad := "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ"
	send := func(typ string, fields map[string]any) bool {
		fields["p"] = pad[:len(typ)]
		return s.event(typ, fields)
	}
	ok := send("messageStart", map[string]any{"role": "assistant"})
	block := 0
	if len(reply.Reasoning) > 0 {
		for _, c := range reply.Reasoning {
			ok = ok && send("contentBlockDelta", map[string]any{"contentBlockIndex": block, "delta": map[string]any{"reasoningContent": map[string]any{"text": c}}})
		}
		ok = ok && send("contentBlockDelta", map[string]any{"contentBlockIndex": block, "delta": map[string]any{"reasoningContent": map[string]any{"signature": reply.signature()}}}) &&
			send("contentBlockStop", map[string]any{"contentBlockIndex": block})
		block++
	}
	if texts := reply.text(req); len(texts) > 0 {
		for _, c := range texts {
			ok = ok && send("contentBlockDelta", map[string]any{"contentBlockIndex": block, "delta": map[string]any{"text": c}})
		}
		if ok && !reply.Hang && reply.StreamError == "" && !reply.NoFinish {
			ok = send("contentBlockStop", map[string]any{"contentBlockIndex": block})
		}
		block++
	}
	for i, tc := range reply.ToolCalls {
		ok = ok && send("contentBlockStart", map[string]any{"contentBlockIndex": block, "start": map[string]any{"toolUse": map[string]any{"toolUseId": reply.callID(req, i), "name": tc.Name}}})
		pieces := chunks(tc.Args, tc.Split)
		if reply.WholeCalls {
			pieces = []string{tc.Args}
		}
		for _, piece := range pieces {
			if piece != "" {
				ok = ok && send("contentBlockDelta", map[string]any{"contentBlockIndex": block, "delta": map[string]any{"toolUse": map[string]any{"input": piece}}})
			}
		}
		ok = ok && send("contentBlockStop", map[string]any{"contentBlockIndex": block})
		block++
	}
	if s.stops(ok, reply, func() {
		s.event("!"+cmp.Or(reply.StreamErrorCode, "internalServerException"), map[string]any{"message": reply.StreamError})
	}) {
		return
	}
	stop := reply.stop()
	switch llm.StopReason(stop) {
	case llm.StopRefusal:
		stop = "content_filtered"
	}
	u := reply.usage()
	_ = send("messageStop", map[string]any{"stopReason": stop}) &&
		send("metadata", map[string]any{
			"usage": map[string]int{"inputTokens": u.InputTokens, "outputTokens": u.OutputTokens,
				"totalTokens":          u.InputTokens + u.OutputTokens + u.CacheReadTokens + u.CacheWriteTokens,
				"cacheReadInputTokens": u.CacheReadTokens, "cacheWriteInputTokens": u.CacheWriteTokens},
			"metrics": map[string]int{"latencyMs": 120}})
}
