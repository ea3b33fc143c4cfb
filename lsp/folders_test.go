package lsp_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// workspace/symbol searches every workspace folder, and follows the
// folders the client adds and removes.
func TestWorkspaceSymbolAcrossFolders(t *testing.T) {
	t.Parallel()
	folder := func(name, body string) string {
		dir, _ := filepath.EvalSymlinks(t.TempDir())
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	first := folder("shapes.go", "package shapes\n\nfunc NewCircle() int { return 1 }\n")
	second := folder("more.go", "package more\n\nfunc NewCircleTwo() int { return 2 }\n")
	third := folder("third.py", "def new_circle_three():\n    pass\n")
	c := startClient(t, fakeModelEnv(t, nil))
	c.mustCall("initialize", map[string]any{
		"processId": nil, "rootUri": fileURI(first), "capabilities": map[string]any{},
		"workspaceFolders": []map[string]string{{"uri": fileURI(first), "name": "a"}, {"uri": fileURI(second), "name": "b"}},
	}, nil)
	c.notify("initialized", map[string]any{})
	search := func() map[string]string {
		var syms []struct {
			Name     string `json:"name"`
			Location struct {
				URI string `json:"uri"`
			} `json:"location"`
		}
		c.mustCall("workspace/symbol", map[string]any{"query": "newcircle"}, &syms)
		out := map[string]string{}
		for _, s := range syms {
			out[s.Name] = s.Location.URI
		}
		return out
	}
	got := search()
	if got["NewCircle"] != fileURI(filepath.Join(first, "shapes.go")) || got["NewCircleTwo"] != fileURI(filepath.Join(second, "more.go")) {
		t.Errorf("workspace/symbol over two folders = %v", got)
	}

	c.notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{
		"added":   []map[string]string{{"uri": fileURI(third), "name": "c"}},
		"removed": []map[string]string{{"uri": fileURI(second), "name": "b"}},
	}})
	got = search()
	names := make([]string, 0, len(got))
	for n := range got {
		names = append(names, n)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"NewCircle", "new_circle_three"}) || got["new_circle_three"] != fileURI(filepath.Join(third, "third.py")) {
		t.Errorf("workspace/symbol after the folders changed = %v", got)
	}
}
