package agent

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// TestResourceLinks: a link with "#L2-3" or "#L4" sends only those lines,
// a reversed or past-the-end range is handled, a directory is listed rather
// than failing, and a plain link sends the whole file.
func TestResourceLinks(t *testing.T) {
	f := newFixture(t)
	s, _, dir := f.session(ModeAsk, map[string]string{
		"a.go":               "line1\nline2\nline3\nline4\nline5\n",
		"pkg/x.go":           "package pkg\n",
		"pkg/sub/y.go":       "package sub\n",
		"pkg/node_modules/z": "skip me\n",
	})
	link := func(rel, frag string) ContentBlock {
		return ContentBlock{Type: "resource_link", Name: rel, URI: "file://" + filepath.ToSlash(filepath.Join(dir, rel)) + frag}
	}
	f.srv.Enqueue(llmtest.Reply{Text: []string{"ok"}})
	_, err := s.Prompt(context.Background(), []ContentBlock{
		{Type: "text", Text: "look"},
		link("a.go", "#L2-3"),
		link("a.go", "#L4"),
		link("a.go", "#L5-4"),
		link("a.go", "#L9-12"),
		link("pkg", ""),
		link("pkg/x.go", ""),
	})
	if err != nil {
		t.Fatal(err)
	}
	got := f.srv.Requests()[0].LastUserText()
	for _, want := range []string{
		"<file path=\"a.go\" lines=\"2-3\">\nline2\nline3\n</file>",
		"<file path=\"a.go\" lines=\"4-4\">\nline4\n</file>",
		"<file path=\"a.go\" lines=\"4-5\">\nline4\nline5\n</file>",
		"[linked lines 9-12 of a.go: the file has only 5 lines]",
		"<directory path=\"pkg\" entries=\"2\">\nsub/\nx.go\n</directory>",
		"<file path=\"pkg/x.go\">\npackage pkg\n\n</file>",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the request lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "line1") || strings.Contains(got, "node_modules") {
		t.Errorf("more than the linked lines, or a skipped folder, was sent:\n%s", got)
	}
}

func TestFileURIRange(t *testing.T) {
	for _, c := range []struct{ uri, want string }{
		{"file:///a/b.go", "/a/b.go [0 0]"},
		{"file:///a/b.go#L10-20", "/a/b.go [10 20]"},
		{"file:///a/b.go#L10-L20", "/a/b.go [10 20]"},
		{"file:///a/b.go#L7", "/a/b.go [7 7]"},
		{"file:///a/b.go#section", "/a/b.go [0 0]"},
		{"file:///a/b.go#L0", "/a/b.go [0 0]"},
	} {
		p, lines, ok := fileURIRange(c.uri)
		if got := fmt.Sprintf("%s %v", p, lines); !ok || got != c.want {
			t.Errorf("%s: %s, want %s", c.uri, got, c.want)
		}
	}
}
