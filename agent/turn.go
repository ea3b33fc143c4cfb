package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/store"
)

// turn runs one prompt on the session goroutine.
func (s *Session) turn(ctx context.Context, prompt []ContentBlock) (reason StopReason, err error) {
	ctx, cancel := context.WithCancel(ctx)
	s.stateMu.Lock()
	if s.closed {
		s.stateMu.Unlock()
		cancel()
		return "", ErrClosed
	}
	s.cancelTurn = cancel
	s.lifecycle = Running
	first := s.title == ""
	s.stateMu.Unlock()

	defer func() {
		cancel()
		s.stateMu.Lock()
		s.cancelTurn = nil
		switch {
		case reason == StopCancelled:
			s.lifecycle = Cancelled
		case err != nil:
			s.lifecycle = Failed
		default:
			s.lifecycle = Idle
		}
		s.outcome = Outcome{StopReason: reason}
		if err != nil {
			s.outcome.Err = err.Error()
		}
		s.stateMu.Unlock()
		s.syncLog()
		s.saveMeta()
	}()

	if first {
		if t := store.Title(promptText(prompt)); t != "" {
			s.stateMu.Lock()
			s.title = t
			s.stateMu.Unlock()
		}
	}
	for _, b := range prompt {
		s.logOnly(Update{Type: UserMessageChunk, Chunk: &b})
	}

	if name, arg, ok := slashCommand(prompt); ok {
		if c, ok := s.commands()[name]; ok {
			return c.run(ctx, s, arg)
		}
	}
	return s.converse(ctx, prompt)
}

// converse sends the prompt to the model and loops over tool calls until the
// model stops calling tools.
func (s *Session) converse(ctx context.Context, prompt []ContentBlock) (StopReason, error) {
	p := s.a.cfg.Provider
	if p == nil {
		return "", ErrNotConfigured
	}
	parts, err := s.promptParts(ctx, prompt)
	if err != nil {
		return "", err
	}
	if err := s.beforeFirstRequest(ctx); err != nil {
		if ctx.Err() != nil {
			return StopCancelled, nil
		}
		return "", err
	}
	s.appendHistory(llm.Message{Role: llm.RoleUser, Content: parts})

	for n := 0; n < s.a.cfg.MaxTurnRequests; n++ {
		resp, err := s.request(ctx, p)
		if err != nil {
			if ctx.Err() != nil {
				return StopCancelled, nil
			}
			return "", err
		}
		calls := resp.ToolCalls()
		if len(calls) == 0 {
			return stopReason(resp.StopReason), nil
		}
		results := s.runTools(ctx, calls)
		if ctx.Err() == nil {
			// Instructions reached through these calls follow their results.
			if text := s.instructionsAfterTools(ctx); text != "" {
				results = append(results, llm.Part{Type: llm.PartText, Text: text})
			}
		}
		s.appendHistory(llm.Message{Role: llm.RoleUser, Content: results})
		if ctx.Err() != nil {
			return StopCancelled, nil
		}
	}
	return StopMaxTurnRequests, nil
}

func stopReason(r llm.StopReason) StopReason {
	switch r {
	case llm.StopMaxTokens:
		return StopMaxTokens
	case llm.StopRefusal:
		return StopRefusal
	}
	return StopEndTurn
}

// request streams one model response, publishing its chunks, and appends
// the assistant message to the history. A broken or cancelled stream seals
// what was said so far, so the history stays a valid alternation.
func (s *Session) request(ctx context.Context, p llm.Provider) (*llm.Response, error) {
	req := &llm.Request{
		Model:     s.Model(),
		System:    s.systemPrompt(),
		Messages:  s.history,
		Tools:     s.toolSpecs(),
		MaxTokens: s.a.cfg.MaxTokens,
	}
	var said strings.Builder
	resp, err := p.Stream(ctx, req, func(e llm.Event) {
		switch e.Type {
		case llm.EventText:
			said.WriteString(e.Text)
			s.emit(Update{Type: AgentMessageChunk, Chunk: &ContentBlock{Type: "text", Text: e.Text}})
		case llm.EventReasoning:
			s.emit(Update{Type: AgentThoughtChunk, Chunk: &ContentBlock{Type: "text", Text: e.Text}})
		}
	})
	if err != nil {
		seal := said.String()
		if seal == "" {
			seal = "(no reply: the request did not complete)"
		}
		s.appendHistory(llm.Text(llm.RoleAssistant, seal))
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var le *llm.Error
		if errors.As(err, &le) {
			return nil, err
		}
		return nil, fmt.Errorf("%s: %w", p.Name(), err)
	}
	s.appendHistory(resp.Message)
	return resp, nil
}

// appendHistory adds m to the model history and the log.
func (s *Session) appendHistory(m llm.Message) {
	s.history = append(s.history, m)
	s.record(recMessage, m)
}
