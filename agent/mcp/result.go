package mcp

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tandemhq/tandem/agent/tools"
)

const (
	// maxOutput caps what the model reads from one call, as the built-in
	// tools do, so one chatty server cannot fill the context window.
	maxOutput = 30000
	// maxImageBytes drops images providers would refuse anyway (Anthropic's
	// per-image limit is 5 MB).
	maxImageBytes = 5 << 20
)

// toResult turns a server's answer into what the model reads: text parts
// joined, images passed as images, links and embedded resources described
// in text, audio named but not passed (no provider takes it in a tool result).
func toResult(r *sdk.CallToolResult) tools.Result {
	var res tools.Result
	var parts []string
	addImage := func(mime string, data []byte, what string) {
		if len(data) > maxImageBytes {
			parts = append(parts, fmt.Sprintf("[%s %s of %d bytes omitted: too large]", what, mime, len(data)))
			return
		}
		res.Images = append(res.Images, tools.Image{MediaType: mime, Data: base64.StdEncoding.EncodeToString(data)})
	}
	for _, c := range r.Content {
		switch c := c.(type) {
		case *sdk.TextContent:
			parts = append(parts, c.Text)
		case *sdk.ImageContent:
			addImage(c.MIMEType, c.Data, "image")
		case *sdk.AudioContent:
			parts = append(parts, fmt.Sprintf("[audio %s of %d bytes omitted]", c.MIMEType, len(c.Data)))
		case *sdk.ResourceLink:
			parts = append(parts, describeLink(c))
		case *sdk.EmbeddedResource:
			if c.Resource == nil {
				continue
			}
			rc := c.Resource
			switch {
			case rc.Blob != nil && strings.HasPrefix(rc.MIMEType, "image/"):
				addImage(rc.MIMEType, rc.Blob, "image resource "+rc.URI)
			case rc.Blob != nil:
				parts = append(parts, fmt.Sprintf("[resource %s: %s, %d bytes of binary data omitted]", rc.URI, orUnknown(rc.MIMEType), len(rc.Blob)))
			default:
				parts = append(parts, fmt.Sprintf("resource %s:\n%s", rc.URI, rc.Text))
			}
		default:
			if b, err := json.Marshal(c); err == nil {
				parts = append(parts, string(b))
			}
		}
	}
	// Servers should mirror structured content as text; some send only the
	// structure, and then the model reads it as JSON.
	if len(parts) == 0 && len(res.Images) == 0 && r.StructuredContent != nil {
		if b, err := json.Marshal(r.StructuredContent); err == nil {
			parts = append(parts, string(b))
		}
	}
	res.Output = capOutput(strings.Join(parts, "\n"))
	res.IsError = r.IsError
	return res
}

func describeLink(l *sdk.ResourceLink) string {
	var b strings.Builder
	fmt.Fprintf(&b, "resource link: %s", l.URI)
	if l.Name != "" {
		fmt.Fprintf(&b, " (%s)", l.Name)
	}
	if l.MIMEType != "" {
		fmt.Fprintf(&b, " [%s]", l.MIMEType)
	}
	if l.Description != "" {
		fmt.Fprintf(&b, ": %s", l.Description)
	}
	return b.String()
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown type"
	}
	return s
}

// capOutput keeps the head and the tail of an output over maxOutput bytes,
// cutting at rune boundaries, and says how much it dropped.
func capOutput(s string) string {
	if len(s) <= maxOutput {
		return s
	}
	headLen, tailLen := maxOutput*2/3, maxOutput/3-200
	for headLen > 0 && !utf8.RuneStart(s[headLen]) {
		headLen--
	}
	start := len(s) - tailLen
	for start < len(s) && !utf8.RuneStart(s[start]) {
		start++
	}
	return fmt.Sprintf("%s\n[... %d bytes of output omitted ...]\n%s", s[:headLen], start-headLen, s[start:])
}
