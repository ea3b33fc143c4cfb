package agent

import (
	"context"
	"time"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/tools"
	"github.com/tandemhq/tandem/codeindex"
)

// repoMapWait bounds how long a session's first request waits for the code
// index to be built: a first index of a huge tree can take many seconds,
// and the user's prompt matters more than the map (the model can still
// call repo_map later).
const repoMapWait = 3 * time.Second

// addRepoMap appends the repository map to the history of a session's
// first request, after the instruction baseline. It goes into the history,
// never the system prompt, so every later request repeats the same bytes
// and the provider's prefix cache keeps working. With several roots it
// maps them all within the one budget (codeindex.MapRoots says how it is
// shared); a root whose index is not ready in time is left out. Failures
// are logged and skipped: the map is guidance, like instructions.
func (t *turnRun) addRepoMap() {
	s, ctx := t.s, t.ctx
	tokens := s.a.cfg.RepoMapTokens
	if tokens <= 0 || s.a.cfg.Indexes == nil {
		return
	}
	wait, cancel := context.WithTimeout(ctx, repoMapWait)
	for _, done := range s.index.done() {
		select {
		case <-done:
		case <-wait.Done():
		}
	}
	cancel()
	v := t.refreshView() // the indexes just built
	parts := tools.MapParts(s.root, s.roots, s.index.list(v))
	if len(parts) == 0 {
		s.a.log.Debug("repository map skipped: no code index is ready", "session", s.id)
		return
	}
	// The files a deny rule keeps the model from reading stay out of the map.
	hidden := s.perms.readHidden(v.mode, tools.Info{Name: tools.RepoMapName, Group: tools.GroupRead}, t.rules())
	m, err := codeindex.MapRoots(ctx, parts, codeindex.MapOptions{Tokens: tokens, Hidden: hidden})
	if err != nil && ctx.Err() == nil {
		s.a.log.Warn("repository map", "session", s.id, "err", err)
	}
	if m == "" || ctx.Err() != nil {
		return
	}
	t.appendHistory(llm.Text(llm.RoleUser, tools.RepoMapHeader+"\n"+m))
}
