package agent

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/tandemhq/tandem/codeindex"
)

// extraState holds the per-session services beside the conversation:
// workspace instructions, the code index and MCP connections.
type extraState struct {
	touchedMu sync.Mutex // guards touched: parallel read tools add to it
	touched   []string
}

func (s *Session) startExtras(ctx context.Context) {}

func (s *Session) stopExtras() {}

// index returns the session root's code index, or nil.
func (s *Session) index() *codeindex.Index { return nil }

// noteTouched remembers paths a tool call read or wrote successfully.
func (s *Session) noteTouched(paths []string) {
	s.extra.touchedMu.Lock()
	s.extra.touched = append(s.extra.touched, paths...)
	s.extra.touchedMu.Unlock()
}

func (s *Session) takeTouched() []string {
	s.extra.touchedMu.Lock()
	defer s.extra.touchedMu.Unlock()
	t := s.extra.touched
	s.extra.touched = nil
	return t
}

// beforeFirstRequest adds the workspace instructions baseline when the
// history does not carry one.
func (s *Session) beforeFirstRequest(ctx context.Context) error { return nil }

// afterTools reconciles workspace instructions along the touched paths.
func (s *Session) afterTools(ctx context.Context) { s.takeTouched() }

func (s *Session) describeInstructions() string {
	return "No workspace instruction files are loaded."
}

// restoreInstructions rebuilds instruction state from logged metadata.
func (s *Session) restoreInstructions(metas []json.RawMessage) {}
