package agent

import (
	"slices"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/policy"
	"github.com/tandemhq/tandem/agent/tools"
	"github.com/tandemhq/tandem/agent/turn"
	"github.com/tandemhq/tandem/codeindex"
)

// turnView is the session's settings as a turn reads them at every step:
// a value the actor builds (view) and hands the turn when it begins, and
// sends it again whenever one of them changes while the turn runs
// (viewChanged). A tool step thus reads its settings without a trip to the
// actor, and nothing outside the actor holds them as shared memory.
type turnView struct {
	mode    Mode
	model   string     // the session's model (a mode or command may override it)
	effort  llm.Effort // "" until chosen: the agent's default applies
	toggles Toggles
	defs    *definitions
	// rules are the rules in force as last read, nil before the settings
	// files were first read; stale once a file changed (see permissions.rulesIn).
	rules *rulesSnapshot
	// indexes are the roots' code indexes in allRoots order, an entry nil
	// while that root's is not built. Never changed once sent.
	indexes []*codeindex.Index
	// catalog is the session's tools in request order (MCP tools last,
	// by name); never changed once sent.
	catalog []tools.Tool
}

// viewFeed is a turn's current view and the channel newer ones arrive on:
// it holds at most one, the latest (the actor replaces one not taken yet).
type viewFeed struct {
	cur  turnView
	next chan turnView
}

// view builds the current view; on the actor, or before it runs.
func (s *Session) view() turnView {
	catalog := s.st.catalog.List()
	sortMCPTools(catalog)
	return turnView{mode: s.st.mode, model: s.st.model, effort: s.st.effort, toggles: s.st.toggles,
		defs: s.custom.defs, rules: s.perms.now, indexes: s.index.built, catalog: catalog}
}

// watch subscribes a turn to the view; on the actor. unwatch ends it.
func (s *Session) watch() viewFeed {
	ch := make(chan turnView, 1)
	s.st.watchers = append(s.st.watchers, ch)
	return viewFeed{cur: s.view(), next: ch}
}

func (s *Session) unwatch(f viewFeed) {
	s.st.watchers = slices.DeleteFunc(s.st.watchers, func(c chan turnView) bool { return c == f.next })
}

// viewChanged sends the view to every turn watching it; on the actor,
// after any of its parts changed. It never blocks: the actor is the only
// sender, and it takes back a view the turn has not taken yet.
func (s *Session) viewChanged() {
	if len(s.st.watchers) == 0 {
		return
	}
	v := s.view()
	for _, ch := range s.st.watchers {
		select {
		case <-ch:
		default:
		}
		ch <- v
	}
}

// view is the settings the turn's current step runs with. Any goroutine of
// the turn may read it: only refreshView changes it, at the points where
// nothing else of the turn runs.
func (t *turnRun) view() turnView { return t.feed.cur }

// refreshView takes the newest view the actor sent, if any, without
// waiting. The turn calls it before each request, each group of tool calls
// and each permission decision, where no other goroutine of the turn reads
// the view.
func (t *turnRun) refreshView() turnView {
	select {
	case v := <-t.feed.next:
		t.feed.cur = v
	default:
	}
	return t.feed.cur
}

// askView is the view for a permission decision of a call of group g: the
// newest, since a call that may ask runs alone (turn/tools.go); the current one
// for any other, which may run beside its group.
func (t *turnRun) askView(g tools.Group) turnView {
	if turn.MayAsk(g) {
		return t.refreshView()
	}
	return t.view()
}

// viewNow is the actor's current view, for a decision outside any turn
// (a plugin's MCP call); not on the actor.
func (s *Session) viewNow() (v turnView) {
	s.read(func() { v = s.view() })
	return v
}

// rules are the rules in force for the turn's current step.
func (t *turnRun) rules() policy.Rules {
	v := t.view()
	return t.s.perms.rulesIn(t.ctx, &v)
}
