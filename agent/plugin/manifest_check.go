package plugin

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/tandemhq/tandem/agent/custom"
	"github.com/tandemhq/tandem/plugin/sdk"
)

// check applies the rules a manifest must meet beyond its shape.
func (m *Manifest) check() error {
	switch {
	case m.Name == "":
		return errNoName
	case !nameRE().MatchString(m.Name):
		return fmt.Errorf("name %q must be lower-case letters, digits and '-' (at most 64)", m.Name)
	case m.Version == "":
		return fmt.Errorf("version is required")
	}
	if _, err := ParseVersion(m.Version); err != nil {
		return fmt.Errorf("version: %w", err)
	}
	if m.TandemVersion != "" {
		if _, err := ParseRange(m.TandemVersion); err != nil {
			return fmt.Errorf("tandemVersion: %w", err)
		}
	}
	if m.APIVersion != "" && m.APIVersion != sdk.ProtocolVersion {
		return fmt.Errorf("apiVersion %q is not supported (this tandem speaks %q)", m.APIVersion, sdk.ProtocolVersion)
	}
	switch {
	case m.HookTimeoutMs < 0 || m.HookTimeoutMs > MaxHookTimeoutMs:
		return fmt.Errorf("hookTimeoutMs must be between 1 and %d", MaxHookTimeoutMs)
	case m.HookTimeoutMs == 0:
		m.HookTimeoutMs = DefaultHookTimeoutMs
	}
	if m.Main != "" {
		if _, err := commandLine(m.Main); err != nil {
			return fmt.Errorf("main: %w", err)
		}
	}
	for _, d := range m.Dependencies {
		if !nameRE().MatchString(d) || d == m.Name {
			return fmt.Errorf("dependency %q is not another plugin's name", d)
		}
	}
	if err := m.checkContributes(); err != nil {
		return err
	}
	return m.compileSchema()
}

// checkContributes refuses contributions the permissions do not grant and
// paths that leave the plugin folder.
func (m *Manifest) checkContributes() error {
	c, p := &m.Contributes, &m.Permissions
	for _, g := range []struct {
		what    string
		n       int
		granted bool
	}{
		{"modes", len(c.Modes), p.Modes}, {"skills", len(c.Skills), p.Skills},
		{"commands", len(c.Commands), p.Commands}, {"rules", len(c.Rules), p.Rules},
		{"mcpServers", len(c.MCPServers), p.MCPServers},
	} {
		if g.n > 0 && !g.granted {
			return fmt.Errorf("contributes.%s needs permissions.%s", g.what, g.what)
		}
	}
	for _, k := range []struct {
		list   []Contribution
		layout func(name string) string
	}{
		{c.Commands, func(n string) string { return "commands/" + n + ".md" }},
		{c.Skills, func(n string) string { return "skills/" + n }},
	} {
		for i := range k.list {
			x := &k.list[i]
			if err := contributionName(x.Name); err != nil {
				return err
			}
			if x.Path == "" {
				x.Path = k.layout(x.Name)
			}
			if err := insidePath(x.Path); err != nil {
				return err
			}
		}
	}
	for i := range c.Modes {
		if err := c.Modes[i].check(); err != nil {
			return err
		}
	}
	for _, r := range c.Rules {
		if err := insidePath(r.Path); err != nil {
			return err
		}
	}
	for _, u := range c.UI {
		if !slices.Contains(p.UI, u.Region) {
			return fmt.Errorf("contributes.ui region %q needs permissions.ui to list it", u.Region)
		}
		if err := insidePath(u.Entry); err != nil {
			return err
		}
	}
	return nil
}

func contributionName(n string) error {
	if !nameRE().MatchString(n) {
		return fmt.Errorf("contribution name %q must be lower-case letters, digits and '-'", n)
	}
	return nil
}

// check refuses a mode that is neither a file nor defined in place, and
// fills in the path of a file one left out.
func (m *ModeContribution) check() error {
	if err := contributionName(m.ID()); err != nil {
		return err
	}
	if !m.Inline() {
		if m.Path == "" {
			m.Path = "modes/" + m.ID() + ".md"
		}
		return insidePath(m.Path)
	}
	if m.Path != "" {
		return fmt.Errorf("mode %q has a path and roleDefinition or tools: a mode is a file or defined in the manifest, not both", m.ID())
	}
	if _, err := custom.DefineMode(m.ID(), m.Name, m.Description, m.Tools, "", m.RoleDefinition, ""); err != nil {
		return fmt.Errorf("mode %q: %w", m.ID(), err)
	}
	return nil
}

// insidePath refuses a path that is absolute or climbs out of the folder.
func insidePath(p string) error {
	if p == "" {
		return fmt.Errorf("a contribution needs a path")
	}
	clean := path.Clean(strings.ReplaceAll(p, `\`, "/"))
	if path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") {
		return fmt.Errorf("path %q leaves the plugin folder", p)
	}
	return nil
}
