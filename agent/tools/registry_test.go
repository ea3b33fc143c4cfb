package tools

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
)

// The argument names in DESIGN.md are a contract with the model: each
// schema names exactly them, and the params struct decodes exactly them.
func TestBuiltinSchemasMatchContract(t *testing.T) {
	contract := map[string]struct {
		group    Group
		args     []string
		required []string
		params   any
	}{
		ReadFileName:    {GroupRead, []string{"path", "offset", "limit"}, []string{"path"}, readFileArgs{}},
		ListFilesName:   {GroupRead, []string{"path", "recursive"}, nil, listFilesArgs{}},
		SearchFilesName: {GroupRead, []string{"pattern", "path", "glob"}, []string{"pattern"}, searchFilesArgs{}},
		WriteFileName:   {GroupEdit, []string{"path", "content"}, []string{"path", "content"}, writeFileArgs{}},
		EditFileName:    {GroupEdit, []string{"path", "old_string", "new_string", "replace_all"}, []string{"path", "old_string", "new_string"}, editFileArgs{}},
		RunCommandName:  {GroupExecute, []string{"command", "timeout_seconds"}, []string{"command"}, runCommandArgs{}},
		UpdatePlanName:  {GroupPlan, []string{"plan"}, []string{"plan"}, updatePlanArgs{}},
	}
	var names []string
	for _, tool := range Builtin() {
		info := tool.Info()
		names = append(names, info.Name)
		c, ok := contract[info.Name]
		if !ok {
			continue // list_code_definition_names is checked by its owner
		}
		if info.Group != c.group {
			t.Errorf("%s: group %s, want %s", info.Name, info.Group, c.group)
		}
		if strings.TrimSpace(info.Description) == "" || info.Kind == "" {
			t.Errorf("%s: empty description or kind", info.Name)
		}
		var schema struct {
			Type       string                     `json:"type"`
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		}
		if err := json.Unmarshal(info.Schema, &schema); err != nil {
			t.Fatalf("%s: schema is not JSON: %v", info.Name, err)
		}
		var props []string
		for k := range schema.Properties {
			props = append(props, k)
		}
		if schema.Type != "object" || !sameSet(props, c.args) || !sameSet(schema.Required, c.required) {
			t.Errorf("%s: schema type %q properties %v required %v; want %v required %v", info.Name, schema.Type, props, schema.Required, c.args, c.required)
		}
		if tags := jsonTags(c.params); !sameSet(tags, c.args) {
			t.Errorf("%s: params struct decodes %v, want %v", info.Name, tags, c.args)
		}
	}
	want := []string{"read_file", "list_files", "search_files", "write_file", "edit_file", "run_command", "update_plan"}
	if got := slices.DeleteFunc(names, func(n string) bool { return n == "list_code_definition_names" }); !slices.Equal(got, want) {
		t.Errorf("Builtin order %v, want %v", got, want)
	}
}

func jsonTags(v any) []string {
	var tags []string
	rt := reflect.TypeOf(v)
	for i := 0; i < rt.NumField(); i++ {
		name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		tags = append(tags, name)
	}
	return tags
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	sort.Strings(a)
	sort.Strings(b)
	return slices.Equal(a, b)
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

	// Concurrent use (run with -race).
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := fmt.Sprintf("mcp__s__t%d", i)
			r.Add(namedTool{name: name})
			r.Get(name)
			r.List()
			r.Remove(name)
		}()
	}
	wg.Wait()
	if got := len(r.List()); got != len(Builtin()) {
		t.Errorf("%d tools after concurrent add/remove", got)
	}
}

func names(ts []Tool) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Info().Name)
	}
	return out
}
