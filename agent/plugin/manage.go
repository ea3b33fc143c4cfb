package plugin

import (
	"encoding/json"
	"fmt"
)

// Catalog is every plugin a workspace sees and what the user decided.
type Catalog struct {
	Statuses []*Status
	Problems []Problem
	State    *State
	home     string
}

// Load reads the catalog for a session rooted at root ("" for none).
func (r *Runtime) Load(root string) (*Catalog, error) {
	st, err := LoadState(r.o.Home)
	if err != nil {
		return nil, err
	}
	found, probs := r.Discover(root)
	return &Catalog{Statuses: Resolve(found, st, r.o.Version), Problems: probs, State: st, home: r.o.Home}, nil
}

// Find returns the folder of name that is in use (or would be).
func (c *Catalog) Find(name string) (*Status, error) {
	var found *Status
	for _, s := range c.Statuses {
		if s.Manifest.Name == name && (found == nil || !s.Shadowed) {
			found = s
		}
	}
	if found != nil {
		return found, nil
	}
	for _, p := range c.Problems {
		if p.Name == name {
			return nil, &RefusedError{Problem: p}
		}
	}
	return nil, fmt.Errorf("no plugin named %s is installed", name)
}

// RefusedError is what Find says of a plugin that is installed but whose
// manifest was refused: nothing can be done with it until it is fixed.
type RefusedError struct{ Problem Problem }

func (e *RefusedError) Error() string {
	return fmt.Sprintf("the plugin %s in %s is refused, so it cannot be used: %v", e.Problem.Name, e.Problem.Dir, e.Problem.Err)
}

func (e *RefusedError) Unwrap() error { return e.Problem.Err }

// Enable records the user's consent to run name. allowAI is the second,
// separate consent a plugin declaring permissions.ai needs before it may
// make model calls billed to the user.
func (c *Catalog) Enable(name string, allowAI bool) (*Status, error) {
	s, err := c.Find(name)
	if err != nil {
		return nil, err
	}
	ch := c.State.Plugins[name]
	if ch == nil || ch.Dir != s.Dir {
		ch = &Choice{Dir: s.Dir}
	}
	ch.Enabled = true
	if allowAI && s.Manifest.Permissions.AI {
		ch.AIConsent = true
	}
	c.State.Plugins[name] = ch
	return s, c.save()
}

// Disable records that name must not run; live sessions stop it.
func (c *Catalog) Disable(name string) error {
	s, err := c.Find(name)
	if err != nil {
		return err
	}
	ch := c.State.Plugins[name]
	if ch == nil || ch.Dir != s.Dir {
		ch = &Choice{Dir: s.Dir}
	}
	ch.Enabled, ch.AIConsent = false, false
	c.State.Plugins[name] = ch
	return c.save()
}

// Forget drops the user's choices about name (after it was removed).
func (c *Catalog) Forget(name string) error {
	delete(c.State.Plugins, name)
	return c.save()
}

func (c *Catalog) save() error { return c.State.Save(c.home) }

// SetSettings validates settings against name's config schema and records
// them; running sessions restart the plugin with them. It returns the
// settings with the schema's defaults applied.
func (c *Catalog) SetSettings(name string, settings json.RawMessage) (json.RawMessage, error) {
	s, err := c.Find(name)
	if err != nil {
		return nil, err
	}
	full, err := s.Manifest.Settings(settings)
	if err != nil {
		return nil, err
	}
	ch := c.State.Plugins[name]
	if ch == nil || ch.Dir != s.Dir {
		ch = &Choice{Dir: s.Dir}
	}
	ch.Settings = settings
	c.State.Plugins[name] = ch
	return full, c.save()
}
