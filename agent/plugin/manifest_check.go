package plugin

import (
	"fmt"
	"path"
	"strings"

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
	for _, list := range [][]Contribution{c.Modes, c.Skills, c.Commands} {
		for _, x := range list {
			if !nameRE().MatchString(x.Name) {
				return fmt.Errorf("contribution name %q must be lower-case letters, digits and '-'", x.Name)
			}
			if err := insidePath(x.Path); err != nil {
				return err
			}
		}
	}
	for _, r := range c.Rules {
		if err := insidePath(r.Path); err != nil {
			return err
		}
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
