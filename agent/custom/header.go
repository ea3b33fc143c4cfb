package custom

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/tandemhq/tandem/internal/frontmatter"
)

// parseHeader is frontmatter.Parse with one allowance for files written
// for Claude Code: their argument hints are bracketed
// ("argument-hint: [pr-number] [priority]"), which YAML reads as a flow
// sequence or rejects outright. A plain (unquoted) argument-hint value is
// therefore taken literally, as those files mean it.
func parseHeader(data []byte, v any) (string, error) {
	header, body, err := frontmatter.Split(data)
	if err != nil {
		return "", err
	}
	if len(bytes.TrimSpace(header)) == 0 {
		return body, nil
	}
	if err := yaml.Unmarshal(literalHints(header), v); err != nil {
		return "", fmt.Errorf("frontmatter: %w", err)
	}
	return body, nil
}

func literalHints(header []byte) []byte {
	lines := strings.Split(string(header), "\n")
	for i, l := range lines {
		key, val, ok := strings.Cut(l, ":")
		if !ok || strings.TrimSpace(key) != "argument-hint" || key != strings.TrimLeft(key, " \t") {
			continue
		}
		val = strings.TrimSpace(val)
		if val == "" || val[0] == '"' || val[0] == '\'' || val[0] == '|' || val[0] == '>' {
			continue
		}
		lines[i] = key + ": " + strconv.Quote(val)
	}
	return []byte(strings.Join(lines, "\n"))
}
