package tools

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// The tool and argument names in DESIGN.md are a contract with the model.
// This pins every built-in schema as the model receives it (the JSON
// bytes, not the Go types): property names and types, the required list,
// enums, and that no object takes properties beyond those.
func TestBuiltinSchemasMatchContract(t *testing.T) {
	const step = `object{content:string!,status:string(pending|in_progress|completed)!,priority:string(high|medium|low)}`
	contract := []struct {
		name   string
		group  Group
		schema string // signature(): name:type, ! marks required
	}{
		{ReadFileName, GroupRead, `object{path:string!,offset:integer,limit:integer}`},
		{ListFilesName, GroupRead, `object{path:string,recursive:boolean}`},
		{SearchFilesName, GroupRead, `object{pattern:string!,path:string,glob:string}`},
		{ListCodeDefinitionNamesName, GroupRead, `object{path:string!}`},
		{RepoMapName, GroupRead, `object{focus:array<string>}`},
		{WriteFileName, GroupEdit, `object{path:string!,content:string!}`},
		{EditFileName, GroupEdit, `object{path:string!,old_string:string!,new_string:string!,replace_all:boolean}`},
		{RunCommandName, GroupExecute, `object{command:string!,timeout_seconds:integer,unsandboxed:boolean}`},
		{UpdatePlanName, GroupPlan, `object{plan:array<` + step + `>!}`},
	}
	builtin := Builtin()
	if len(builtin) != len(contract) {
		t.Fatalf("%d built-in tools, want %d", len(builtin), len(contract))
	}
	for i, tool := range builtin {
		info, c := tool.Info(), contract[i]
		if info.Name != c.name || info.Group != c.group {
			t.Errorf("tool %d is %s (%s), want %s (%s)", i, info.Name, info.Group, c.name, c.group)
		}
		if strings.TrimSpace(info.Description) == "" || info.Kind == "" {
			t.Errorf("%s: empty description or kind", info.Name)
		}
		if got := signature(t, info.Name, info.Schema); got != c.schema {
			t.Errorf("%s: schema\n got %s\nwant %s", info.Name, got, c.schema)
		}
	}
}

// signature renders a schema compactly, with properties in the order the
// JSON lists them (the order is part of what the model reads). It fails the
// test on an object that would accept properties it does not list.
func signature(t *testing.T, at string, raw json.RawMessage) string {
	t.Helper()
	var s struct {
		Type                 any             `json:"type"`
		Properties           json.RawMessage `json:"properties"`
		Required             []string        `json:"required"`
		Items                json.RawMessage `json:"items"`
		Enum                 []string        `json:"enum"`
		AdditionalProperties any             `json:"additionalProperties"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("%s: %v", at, err)
	}
	typ, ok := s.Type.(string)
	if !ok {
		t.Errorf("%s: type %v, want a single type", at, s.Type)
	}
	switch typ {
	case "object":
		if s.AdditionalProperties != false {
			t.Errorf("%s: additionalProperties is %v, want false", at, s.AdditionalProperties)
		}
		var props map[string]json.RawMessage
		if err := json.Unmarshal(s.Properties, &props); err != nil {
			t.Fatalf("%s: properties: %v", at, err)
		}
		var parts []string
		for _, name := range keyOrder(t, s.Properties) {
			part := name + ":" + signature(t, at+"."+name, props[name])
			if slices.Contains(s.Required, name) {
				part += "!"
			}
			parts = append(parts, part)
		}
		for _, r := range s.Required {
			if props[r] == nil {
				t.Errorf("%s: required names unknown property %q", at, r)
			}
		}
		return "object{" + strings.Join(parts, ",") + "}"
	case "array":
		return "array<" + signature(t, at+"[]", s.Items) + ">"
	}
	if s.Enum != nil {
		return typ + "(" + strings.Join(s.Enum, "|") + ")"
	}
	return typ
}

// keyOrder lists a JSON object's keys in the order they are written.
func keyOrder(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	var keys []string
	if _, err := dec.Token(); err != nil { // {
		t.Fatal(err)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

func TestDescribe(t *testing.T) {
	root := "/w/repo"
	cases := []struct {
		tool  Tool
		input string
		title string
		loc   []Location
	}{
		{NewReadFile(), `{"path":"src/main.go","offset":10,"limit":41}`, "Read src/main.go:10-50", []Location{{"/w/repo/src/main.go", 10}}},
		{NewReadFile(), `{"path":"/w/repo/a.go"}`, "Read a.go", []Location{{"/w/repo/a.go", 1}}},
		{NewReadFile(), `{"path":"../etc/passwd"}`, "Read ../etc/passwd", nil},
		{NewEditFile(), `{"path":"main.go","old_string":"a","new_string":"b"}`, "Edit main.go", []Location{{"/w/repo/main.go", 0}}},
		{NewWriteFile(), `{"path":"docs/x.md","content":""}`, "Write docs/x.md", []Location{{"/w/repo/docs/x.md", 1}}},
		{NewRunCommand(), `{"command":"go test ./..."}`, "Run `go test ./...`", nil},
		{NewRunCommand(), `{"command":"make\nmake install"}`, "Run `make …`", nil},
		{NewListFiles(), `{}`, "List .", []Location{{"/w/repo", 0}}},
		{NewListFiles(), `{"path":"src","recursive":true}`, "List src (recursive)", []Location{{"/w/repo/src", 0}}},
		{NewSearchFiles(), `{"pattern":"TODO","glob":"*.go"}`, `Search "TODO" in . (*.go)`, []Location{{"/w/repo", 0}}},
		{NewUpdatePlan(), `{"plan":[]}`, "Update plan", nil},
		// Garbage in: still a title, never a panic.
		{NewReadFile(), `not json`, "Read .", []Location{{"/w/repo", 1}}},
		{NewEditFile(), `{"path":7}`, "Edit .", []Location{{"/w/repo", 0}}},
	}
	for _, c := range cases {
		p := c.tool.Describe(root, json.RawMessage(c.input))
		if p.Title != c.title || !reflect.DeepEqual(p.Locations, c.loc) {
			t.Errorf("%s %s: got %q %v, want %q %v", c.tool.Info().Name, c.input, p.Title, p.Locations, c.title, c.loc)
		}
	}
}

type namedTool struct {
	Tool
	name string
}

func (n namedTool) Info() Info { return Info{Name: n.name} }

func TestRegistry(t *testing.T) {
	r := NewRegistry(Builtin()...)
	if got := len(r.List()); got != len(Builtin()) {
		t.Fatalf("%d tools", got)
	}
	if tool, ok := r.Get(EditFileName); !ok || tool.Info().Name != EditFileName {
		t.Fatal("Get(edit_file) failed")
	}
	r.Add(namedTool{name: "mcp__x__y"})
	replacement := namedTool{name: ReadFileName}
	r.Add(replacement)
	list := r.List()
	if list[0] != Tool(replacement) || list[len(list)-1].Info().Name != "mcp__x__y" || len(list) != len(Builtin())+1 {
		t.Errorf("replace in place / append failed: %v", names(list))
	}
	if !r.Remove("mcp__x__y") || r.Remove("mcp__x__y") {
		t.Error("Remove reports wrongly")
	}
	if _, ok := r.Get("mcp__x__y"); ok {
		t.Error("removed tool still there")
	}
	// The returned list is a copy.
	list = r.List()
	list[0] = nil
	if r.List()[0] == nil {
		t.Error("List exposes internal storage")
	}
}

func names(ts []Tool) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Info().Name)
	}
	return out
}
