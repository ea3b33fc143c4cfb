package plugin

import (
	"fmt"
	"sort"
)

// Status is one plugin and what the user's choices make of it.
type Status struct {
	*Plugin
	Enabled bool   // the user enabled it (or it is bundled and ships enabled)
	Active  bool   // it runs: enabled and not blocked
	Blocked string // why an enabled plugin does not run
	// Shadowed is set on a folder that has the name of the plugin in use.
	Shadowed bool
	Choice   *Choice // the user's recorded choice, if any
}

// Resolve decides, for every plugin found, whether it runs. Of several
// folders with one name, the one the user enabled is used, else the one
// of highest precedence (found last). An enabled plugin is blocked when
// its tandemVersion range excludes version, or a dependency does not run;
// dependency cycles block every plugin in them.
func Resolve(found []*Plugin, st *State, version string) []*Status {
	byName := map[string]*Status{}
	var all []*Status
	for _, p := range found {
		s := &Status{Plugin: p, Enabled: st.enabled(p), Choice: st.Plugins[p.Manifest.Name]}
		all = append(all, s)
		prev := byName[p.Manifest.Name]
		if prev == nil || !prev.Enabled || s.Enabled {
			if prev != nil {
				prev.Shadowed = true
			}
			byName[p.Manifest.Name] = s
		} else {
			s.Shadowed = true
		}
	}
	running, _ := ParseVersion(version) // "dev" builds are not checked
	devBuild := version == "" || version == "dev"
	for _, s := range byName {
		if !s.Enabled || s.Manifest.TandemVersion == "" || devBuild {
			continue
		}
		if r, err := ParseRange(s.Manifest.TandemVersion); err == nil && !r.Contains(running) {
			s.Blocked = fmt.Sprintf("needs tandem %s; this is %s", s.Manifest.TandemVersion, version)
		}
	}
	state := map[string]int{} // 0 unknown, 1 visiting, 2 done
	var visit func(s *Status) bool
	visit = func(s *Status) bool {
		switch state[s.Manifest.Name] {
		case 1:
			s.Blocked = "its dependencies form a cycle"
			return false
		case 2:
			return s.Active
		}
		state[s.Manifest.Name] = 1
		ok := s.Enabled && s.Blocked == ""
		for _, d := range s.Manifest.Dependencies {
			if !ok {
				break
			}
			dep := byName[d]
			switch {
			case dep == nil:
				s.Blocked, ok = fmt.Sprintf("needs the plugin %s, which is not installed", d), false
			case !dep.Enabled:
				s.Blocked, ok = fmt.Sprintf("needs the plugin %s, which is not enabled", d), false
			case !visit(dep):
				if s.Blocked == "" {
					s.Blocked = fmt.Sprintf("needs the plugin %s, which is blocked: %s", d, dep.Blocked)
				}
				ok = false
			}
		}
		state[s.Manifest.Name] = 2
		s.Active = ok && s.Enabled
		return s.Active
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		visit(byName[n])
	}
	return all
}

// Active lists the plugins that run, in a fixed order: by name. Hooks and
// transforms run in this order (registration order).
func Active(all []*Status) []*Status {
	var out []*Status
	for _, s := range all {
		if s.Active && !s.Shadowed {
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Manifest.Name < out[j].Manifest.Name })
	return out
}
