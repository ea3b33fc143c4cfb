package tools

import (
	"slices"
	"sync"
)

// Registry is an ordered set of tools, keyed by name. The order is the
// order tools were added, so the model sees a stable tool list (which keeps
// the provider's prompt cache warm). Not for concurrent use: a session's
// actor owns its registry and hands turns a copy of the list (List).
type Registry struct {
	tools []Tool
}

// NewRegistry returns a registry holding ts, in order.
func NewRegistry(ts ...Tool) *Registry {
	r := &Registry{}
	for _, t := range ts {
		r.Add(t)
	}
	return r
}

// Add registers t. A tool with the same name is replaced in place, keeping
// its position.
func (r *Registry) Add(t Tool) {
	name := t.Info().Name
	if i := r.index(name); i >= 0 {
		r.tools[i] = t
		return
	}
	r.tools = append(r.tools, t)
}

// Remove unregisters the named tool and reports whether it was there.
func (r *Registry) Remove(name string) bool {
	i := r.index(name)
	if i < 0 {
		return false
	}
	r.tools = slices.Delete(r.tools, i, i+1)
	return true
}

// Get returns the named tool.
func (r *Registry) Get(name string) (Tool, bool) {
	if i := r.index(name); i >= 0 {
		return r.tools[i], true
	}
	return nil, false
}

// List returns the tools in order; the slice is the caller's.
func (r *Registry) List() []Tool {
	return slices.Clone(r.tools)
}

func (r *Registry) index(name string) int {
	return slices.IndexFunc(r.tools, func(t Tool) bool { return t.Info().Name == name })
}

// Builtin returns tandem's built-in tools in their fixed order: reading
// tools first, then edits, commands and the plan.
func Builtin() []Tool {
	return slices.Clone(builtin())
}

// builtin builds the built-in tools once per process: deriving and
// rendering their schemas cost some 50 KB per call, and every session
// asks. The tools hold no state, so sharing them is safe.
var builtin = sync.OnceValue(func() []Tool {
	return []Tool{
		NewReadFile(),
		NewListFiles(),
		NewSearchFiles(),
		NewListCodeDefinitionNames(),
		NewRepoMap(),
		NewWriteFile(),
		NewEditFile(),
		NewRunCommand(),
		NewUpdatePlan(),
	}
})
