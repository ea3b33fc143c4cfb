package llmtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// Script is the JSON form of a server's behaviour, used by the fakellm
// binary and by tests that keep scripts in testdata.
type Script struct {
	// Replies are served first, in order (like Enqueue).
	Replies []Reply `json:"replies,omitempty"`
	// Rules are tried in order once the replies are used up; the first
	// that matches answers.
	Rules []Rule `json:"rules,omitempty"`
	// Default answers when no rule matches. Without it such a request
	// gets HTTP 400 naming what was asked.
	Default *Reply `json:"default,omitempty"`
	// Title answers title requests (Server.Titles); without it they are
	// refused and sessions keep their first prompt's title.
	Title *Reply `json:"title,omitempty"`
	// ContextLimit refuses requests larger than it, before any reply is
	// taken, as LimitContext does.
	ContextLimit *ScriptLimit `json:"context_limit,omitempty"`
}

// ScriptLimit is a script's context limit: tokens, and whose refusal to
// send ("" the wire's own provider, "vllm", "llama.cpp", "ollama",
// "proxy").
type ScriptLimit struct {
	Tokens int         `json:"tokens"`
	Style  WindowStyle `json:"style,omitempty"`
}

// Rule answers a request whose conditions all hold (an empty condition
// always holds).
type Rule struct {
	LastUserContains string `json:"last_user_contains,omitempty"`
	SystemContains   string `json:"system_contains,omitempty"`
	// HasTool holds when the request offers a tool of this name.
	HasTool string `json:"has_tool,omitempty"`
	Reply   Reply  `json:"reply"`
}

func (r *Rule) matches(req *Request) bool {
	if r.LastUserContains != "" && !strings.Contains(req.LastUserText(), r.LastUserContains) {
		return false
	}
	if r.SystemContains != "" && !strings.Contains(req.System, r.SystemContains) {
		return false
	}
	if r.HasTool != "" {
		found := false
		for _, t := range req.Tools {
			found = found || t == r.HasTool
		}
		return found
	}
	return true
}

// ParseScript reads a script, rejecting unknown fields so typos surface.
func ParseScript(data []byte) (*Script, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var s Script
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("llmtest: script: %w", err)
	}
	return &s, nil
}

// LoadScript reads a script file.
func LoadScript(path string) (*Script, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("llmtest: %w", err)
	}
	return ParseScript(data)
}

// Use enqueues the script's replies and answers later requests by its rules.
func (s *Server) Use(sc *Script) {
	if l := sc.ContextLimit; l != nil {
		s.LimitContext(l.Style, l.Tokens)
	}
	s.Enqueue(sc.Replies...)
	if t := sc.Title; t != nil {
		s.Titles(func(*Request) Reply { return *t })
	}
	if len(sc.Rules) == 0 && sc.Default == nil {
		return
	}
	rules, def := append([]Rule(nil), sc.Rules...), sc.Default
	s.Handle(func(req *Request) Reply {
		for i := range rules {
			if rules[i].matches(req) {
				return rules[i].Reply
			}
		}
		if def != nil {
			return *def
		}
		return Reply{Status: 400, Message: fmt.Sprintf("llmtest: no rule matches request %d; last user text %q", req.N, req.LastUserText())}
	})
}
