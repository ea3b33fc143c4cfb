package frontmatter

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

type meta struct {
	Description  string `yaml:"description"`
	ArgumentHint string `yaml:"argument-hint"`
	AllowedTools List   `yaml:"allowed-tools"`
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     meta
		body     string
	}{
		{"no header", "just text\n", meta{}, "just text\n"},
		{"empty", "", meta{}, ""},
		{"header", "---\ndescription: Say hi\nargument-hint: <name>\nextra: kept out\n---\nHello $ARGUMENTS\n",
			meta{Description: "Say hi", ArgumentHint: "<name>"}, "Hello $ARGUMENTS\n"},
		{"crlf and bom", "\ufeff---\r\ndescription: x\r\n---\r\nbody\r\n", meta{Description: "x"}, "body\r\n"},
		{"tools as string", "---\nallowed-tools: Read, Bash(git add:*, git commit:*), Grep\n---\n",
			meta{AllowedTools: List{"Read", "Bash(git add:*, git commit:*)", "Grep"}}, ""},
		{"tools as list", "---\nallowed-tools:\n  - Read\n  - ' Edit '\n---\nb",
			meta{AllowedTools: List{"Read", "Edit"}}, "b"},
		{"empty header", "---\n---\nbody", meta{}, "body"},
		{"dashes later are body", "text\n---\nmore\n", meta{}, "text\n---\nmore\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got meta
			body, err := Parse([]byte(tc.in), &got)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) || body != tc.body {
				t.Errorf("got %+v %q, want %+v %q", got, body, tc.want, tc.body)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	var m meta
	if _, err := Parse([]byte("---\ndescription: x\n"), &m); !errors.Is(err, ErrUnterminated) {
		t.Errorf("unterminated: %v", err)
	}
	if _, err := Parse([]byte("---\ndescription: [unclosed\n---\n"), &m); err == nil || !strings.Contains(err.Error(), "line") {
		t.Errorf("bad yaml: %v", err)
	}
	if _, err := Parse([]byte("---\nallowed-tools: {a: b}\n---\n"), &m); err == nil {
		t.Error("a mapping for a list was accepted")
	}
	big := "---\n" + strings.Repeat("# filler line\n", MaxHeader/10) + "---\n"
	if _, err := Parse([]byte(big), &m); err == nil || !strings.Contains(err.Error(), "longer") {
		t.Errorf("oversized header: %v", err)
	}
}
