package llmtest

import (
	"encoding/json"
	"fmt"
	"strings"
)

// PrefixKept checks that cur, a later request of the same conversation in
// the Anthropic format, starts with prev byte for byte: the same system
// prompt and tools, and prev's messages unchanged at the front. Only the
// moving cache_control breakpoint is ignored. Provider prompt caches hit
// only when this holds.
func PrefixKept(prev, cur *Request) error {
	type body struct {
		System   json.RawMessage   `json:"system"`
		Tools    json.RawMessage   `json:"tools"`
		Messages []json.RawMessage `json:"messages"`
	}
	var a, b body
	if err := json.Unmarshal(prev.Body, &a); err != nil {
		return fmt.Errorf("request %d: %w", prev.N, err)
	}
	if err := json.Unmarshal(cur.Body, &b); err != nil {
		return fmt.Errorf("request %d: %w", cur.N, err)
	}
	strip := func(r json.RawMessage) string {
		return strings.ReplaceAll(string(r), `,"cache_control":{"type":"ephemeral"}`, "")
	}
	switch {
	case strip(a.System) != strip(b.System):
		return fmt.Errorf("request %d changed the system prompt:\n%s\n%s", cur.N, a.System, b.System)
	case strip(a.Tools) != strip(b.Tools):
		return fmt.Errorf("request %d changed the tools", cur.N)
	case len(b.Messages) < len(a.Messages):
		return fmt.Errorf("request %d has %d messages, fewer than the %d before", cur.N, len(b.Messages), len(a.Messages))
	}
	for i := range a.Messages {
		if strip(a.Messages[i]) != strip(b.Messages[i]) {
			return fmt.Errorf("request %d rewrote message %d:\n%s\n%s", cur.N, i, a.Messages[i], b.Messages[i])
		}
	}
	return nil
}
