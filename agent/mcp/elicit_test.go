package mcp

import (
	"reflect"
	"testing"
)

// Accepting a form without showing it sends the defaults and a yes for a
// required yes/no field; other required fields cannot be filled.
func TestFormDefaults(t *testing.T) {
	for _, tc := range []struct {
		name        string
		schema      any
		wantContent map[string]any
		wantMissing []string
	}{
		{"yes/no", map[string]any{"type": "object", "properties": map[string]any{"ok": map[string]any{"type": "boolean"}}, "required": []string{"ok"}},
			map[string]any{"ok": true}, nil},
		{"defaults", map[string]any{"type": "object", "properties": map[string]any{
			"env":   map[string]any{"type": "string", "default": "staging"},
			"force": map[string]any{"type": "boolean"}}},
			map[string]any{"env": "staging"}, nil},
		{"a required name", map[string]any{"type": "object", "properties": map[string]any{
			"name": map[string]any{"type": "string"}, "age": map[string]any{"type": "integer"}}, "required": []string{"name", "age"}},
			map[string]any{}, []string{"age", "name"}},
		{"no schema", nil, map[string]any{}, nil},
	} {
		content, missing := formDefaults(tc.schema)
		if !reflect.DeepEqual(content, tc.wantContent) || !reflect.DeepEqual(missing, tc.wantMissing) {
			t.Errorf("%s: content %v missing %v; want %v, %v", tc.name, content, missing, tc.wantContent, tc.wantMissing)
		}
	}
}
