package agent

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/mcp"
)

func TestPromptArgs(t *testing.T) {
	two := mcp.Prompt{Arguments: []mcp.PromptArgument{{Name: "number", Required: true}, {Name: "focus"}}}
	one := mcp.Prompt{Arguments: []mcp.PromptArgument{{Name: "text", Required: true}}}
	for _, c := range []struct {
		p       mcp.Prompt
		line    string
		want    string
		missing string
	}{
		{two, "42 error handling", "focus=error handling number=42", ""},
		{two, "focus=tests 7", "focus=tests number=7", ""},
		{two, `number=9 "a b"`, "focus=a b number=9", ""},
		{two, "", "", "number"},
		{two, "focus=x", "focus=x", "number"},
		{one, "summarise this whole line", "text=summarise this whole line", ""},
		{mcp.Prompt{}, "ignored words", "", ""},
	} {
		args, missing := promptArgs(c.p, c.line)
		var got []string
		for _, a := range []string{"focus", "number", "text"} {
			if v, ok := args[a]; ok {
				got = append(got, fmt.Sprintf("%s=%s", a, v))
			}
		}
		if strings.Join(got, " ") != c.want || strings.Join(missing, ",") != c.missing {
			t.Errorf("promptArgs(%q) = %v, missing %v; want %s, missing %s", c.line, got, missing, c.want, c.missing)
		}
	}
}
