package mcp

import (
	"crypto/sha1"
	"encoding/hex"
	"strings"
)

// maxNameLen is the longest tool name every provider accepts (OpenAI's
// limit; Anthropic's is wider). Names are also restricted to [A-Za-z0-9_-].
const maxNameLen = 64

// ToolName is the model-facing name of a server's tool:
// mcp__<server>__<tool>, with characters providers refuse replaced by '_'.
// A name over the length limit keeps its start and gains a short digest of
// the full name, so two long names that share a prefix stay distinct.
func ToolName(server, tool string) string {
	full := "mcp__" + sanitize(server) + "__" + sanitize(tool)
	if len(full) <= maxNameLen {
		return full
	}
	sum := sha1.Sum([]byte(server + "\x00" + tool))
	tag := hex.EncodeToString(sum[:4])
	return full[:maxNameLen-len(tag)-1] + "_" + tag
}

func sanitize(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}
