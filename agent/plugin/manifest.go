package plugin

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/tandemhq/tandem/plugin/sdk"
)

// ManifestFile is the manifest's name at a plugin folder's root.
const ManifestFile = "plugin.json"

// Hook budget bounds, in milliseconds.
const (
	DefaultHookTimeoutMs = 500
	MaxHookTimeoutMs     = 60000
)

// Manifest is a parsed, checked plugin.json.
type Manifest struct {
	Name          string          `json:"name"`
	Version       string          `json:"version"`
	Description   string          `json:"description"`
	Author        string          `json:"author,omitempty"`
	Homepage      string          `json:"homepage,omitempty"`
	License       string          `json:"license,omitempty"`
	TandemVersion string          `json:"tandemVersion,omitempty"` // a semver range
	APIVersion    string          `json:"apiVersion,omitempty"`
	Main          string          `json:"main,omitempty"` // command line, relative to the folder
	Permissions   sdk.Permissions `json:"permissions"`
	HookTimeoutMs int             `json:"hookTimeoutMs,omitempty"`
	Contributes   Contributes     `json:"contributes"`
	Dependencies  []string        `json:"dependencies,omitempty"`
	Config        json.RawMessage `json:"config,omitempty"` // JSON Schema of the settings
	// DefaultEnabled is honoured for bundled plugins only: a plugin found
	// on disk can never enable itself.
	DefaultEnabled bool `json:"defaultEnabled,omitempty"`

	schema *jsonschema.Resolved // Config, compiled
}

// Contributes lists a plugin's declarative contributions. The files are
// loaded by the customization loaders, namespaced "<plugin>:<name>".
type Contributes struct {
	Modes      []ModeContribution         `json:"modes,omitempty"`
	Skills     []Contribution             `json:"skills,omitempty"`
	Commands   []Contribution             `json:"commands,omitempty"`
	Rules      []Rule                     `json:"rules,omitempty"`
	MCPServers map[string]json.RawMessage `json:"mcpServers,omitempty"`
	UI         []UIContribution           `json:"ui,omitempty"`
}

// UIContribution is a built UI module for an editor UI region. tandem
// checks it (the region granted in permissions.ui, the entry inside the
// folder) but shows none: its editors have no plugin UI regions.
type UIContribution struct {
	Region string `json:"region"`
	Entry  string `json:"entry"` // relative to the plugin folder
}

// Contribution is one skill or command. Without a path it is where a
// plugin's layout puts it: commands/<name>.md, skills/<name>/SKILL.md
// (check fills the path in).
type Contribution struct {
	Name         string `json:"name"`
	Path         string `json:"path,omitempty"` // relative to the plugin folder
	Description  string `json:"description,omitempty"`
	ArgumentHint string `json:"argumentHint,omitempty"` // commands only
	// Private keeps it out of what users are shown (the slash-command
	// list); it still runs by its qualified name, and a private skill
	// stays in the model's list.
	Private bool `json:"private,omitempty"`
}

// ModeContribution is one mode: a mode file (path; without one,
// modes/<slug>.md), or defined in the manifest itself by roleDefinition
// and tools. Its id is slug, or name when there is no slug; with a slug,
// name is what pickers show.
type ModeContribution struct {
	Slug           string   `json:"slug,omitempty"`
	Name           string   `json:"name"`
	Path           string   `json:"path,omitempty"`
	Description    string   `json:"description,omitempty"`
	RoleDefinition string   `json:"roleDefinition,omitempty"`
	Tools          []string `json:"tools,omitempty"` // tool groups; absent: every group
	// Private hides the mode from the mode selector; it is still entered
	// by its qualified slug.
	Private bool `json:"private,omitempty"`
}

// ID is the mode's unqualified id.
func (m ModeContribution) ID() string {
	if m.Slug != "" {
		return m.Slug
	}
	return m.Name
}

// Inline reports whether the manifest defines the mode (no mode file).
func (m ModeContribution) Inline() bool { return m.RoleDefinition != "" || m.Tools != nil }

// Rule is a rules Markdown file and the modes whose instructions it joins
// (none: every mode).
type Rule struct {
	Path  string   `json:"path"`
	Modes []string `json:"modes,omitempty"`
}

// Field sets plugin.json may hold, per object; anything else is refused.
var (
	manifestFields = []string{"name", "version", "description", "author", "homepage", "license",
		"tandemVersion", "apiVersion", "main", "permissions", "hookTimeoutMs", "contributes",
		"dependencies", "config", "defaultEnabled"}
	permissionFields = []string{"tools", "systemPrompt", "modes", "skills", "commands", "rules",
		"mcpServers", "mcpInvoke", "lifecycle", "events", "filesystem", "network", "ai", "agent", "task", "ui"}
	contributesFields = []string{"modes", "skills", "commands", "rules", "mcpServers", "ui"}
	commandFields     = []string{"name", "path", "description", "argumentHint", "private"}
	skillFields       = []string{"name", "path", "description", "private"}
	modeFields        = []string{"slug", "name", "path", "description", "roleDefinition", "tools", "private"}
	ruleFields        = []string{"path", "modes"}
	uiFields          = []string{"region", "entry"}
)

var nameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`) })

// ParseManifest reads and checks a plugin.json. Unknown fields fail it
// (fail closed), and the error names every one of them.
func ParseManifest(data []byte) (*Manifest, error) {
	if err := unknownFields(data); err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("plugin.json: %w", err)
	}
	if err := m.check(); err != nil {
		return nil, fmt.Errorf("plugin.json: %w", err)
	}
	return &m, nil
}

// unknownFields names every field outside the known sets, at any level
// the manifest defines.
func unknownFields(data []byte) error {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return fmt.Errorf("plugin.json is not a JSON object: %w", err)
	}
	var bad []string
	bad = append(bad, extra("", top, manifestFields)...)
	if raw, ok := top["permissions"]; ok {
		bad = append(bad, extraIn("permissions.", raw, permissionFields)...)
	}
	if raw, ok := top["contributes"]; ok {
		var c map[string]json.RawMessage
		if json.Unmarshal(raw, &c) == nil {
			bad = append(bad, extra("contributes.", c, contributesFields)...)
			for k, fields := range map[string][]string{"modes": modeFields, "skills": skillFields,
				"commands": commandFields, "rules": ruleFields, "ui": uiFields} {
				bad = append(bad, extraInList("contributes."+k, c[k], fields)...)
			}
		}
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Strings(bad)
	return fmt.Errorf("plugin.json has unknown fields: %s", strings.Join(bad, ", "))
}

func extra(prefix string, obj map[string]json.RawMessage, known []string) []string {
	var bad []string
	for k := range obj {
		if !slices.Contains(known, k) {
			bad = append(bad, prefix+k)
		}
	}
	return bad
}

func extraIn(prefix string, raw json.RawMessage, known []string) []string {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return nil // the typed decode reports the wrong shape
	}
	return extra(prefix, obj, known)
}

func extraInList(prefix string, raw json.RawMessage, known []string) []string {
	var list []json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &list) != nil {
		return nil
	}
	var bad []string
	for i, item := range list {
		bad = append(bad, extraIn(fmt.Sprintf("%s[%d].", prefix, i), item, known)...)
	}
	return bad
}

// ConfigSchema is the compiled config schema; nil when there is none.
func (m *Manifest) ConfigSchema() *jsonschema.Resolved { return m.schema }

// compileSchema checks the config schema and keeps it compiled.
func (m *Manifest) compileSchema() error {
	if len(bytes.TrimSpace(m.Config)) == 0 {
		return nil
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(m.Config, &s); err != nil {
		return fmt.Errorf("config is not a JSON Schema: %w", err)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		return fmt.Errorf("config schema: %w", err)
	}
	m.schema = r
	return nil
}

// Settings validates the user's settings for this plugin against the
// config schema, applies its defaults and returns the JSON object the
// plugin is initialized with.
func (m *Manifest) Settings(user json.RawMessage) (json.RawMessage, error) {
	v := map[string]any{}
	if len(bytes.TrimSpace(user)) > 0 {
		if err := json.Unmarshal(user, &v); err != nil {
			return nil, fmt.Errorf("the settings of %s are not a JSON object: %w", m.Name, err)
		}
	}
	if m.schema != nil {
		if err := m.schema.ApplyDefaults(&v); err != nil {
			return nil, fmt.Errorf("the settings of %s: %w", m.Name, err)
		}
		if err := m.schema.Validate(v); err != nil {
			return nil, fmt.Errorf("the settings of %s do not fit its config schema: %w", m.Name, err)
		}
	}
	return json.Marshal(v)
}

var errNoName = errors.New("name is required")
