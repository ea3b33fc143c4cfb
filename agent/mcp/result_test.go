package mcp

import (
	"strings"
	"testing"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestToResult(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n")
	for _, tc := range []struct {
		name    string
		in      sdk.CallToolResult
		output  string
		images  int
		isError bool
	}{
		{"text parts joined", sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "a"}, &sdk.TextContent{Text: "b"}}}, "a\nb", 0, false},
		{"error result", sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "no such file"}}}, "no such file", 0, true},
		{"image", sdk.CallToolResult{Content: []sdk.Content{&sdk.ImageContent{MIMEType: "image/png", Data: png}}}, "", 1, false},
		{"image too large", sdk.CallToolResult{Content: []sdk.Content{&sdk.ImageContent{MIMEType: "image/png", Data: make([]byte, maxImageBytes+1)}}},
			"[image image/png of 5242881 bytes omitted: too large]", 0, false},
		{"audio named", sdk.CallToolResult{Content: []sdk.Content{&sdk.AudioContent{MIMEType: "audio/wav", Data: []byte("RIFF")}}}, "[audio audio/wav of 4 bytes omitted]", 0, false},
		{"resource link", sdk.CallToolResult{Content: []sdk.Content{&sdk.ResourceLink{URI: "file:///r/a.go", Name: "a.go", MIMEType: "text/x-go", Description: "source"}}},
			"resource link: file:///r/a.go (a.go) [text/x-go]: source", 0, false},
		{"embedded text", sdk.CallToolResult{Content: []sdk.Content{&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "mem://x", Text: "body"}}}}, "resource mem://x:\nbody", 0, false},
		{"embedded image", sdk.CallToolResult{Content: []sdk.Content{&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "mem://i", MIMEType: "image/png", Blob: png}}}}, "", 1, false},
		{"embedded binary", sdk.CallToolResult{Content: []sdk.Content{&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "mem://z", Blob: []byte{1, 2, 3}}}}},
			"[resource mem://z: unknown type, 3 bytes of binary data omitted]", 0, false},
		{"structured only", sdk.CallToolResult{Content: []sdk.Content{}, StructuredContent: map[string]any{"n": 1}}, `{"n":1}`, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := toResult(&tc.in)
			if got.Output != tc.output || len(got.Images) != tc.images || got.IsError != tc.isError {
				t.Errorf("got output %q, %d images, isError %v; want %q, %d, %v", got.Output, len(got.Images), got.IsError, tc.output, tc.images, tc.isError)
			}
			for _, img := range got.Images {
				if img.MediaType != "image/png" || img.Data != "iVBORw0KGgo=" {
					t.Errorf("image = %+v, want base64 of the PNG bytes", img)
				}
			}
		})
	}
}

func TestCapOutput(t *testing.T) {
	short := strings.Repeat("a", maxOutput)
	if capOutput(short) != short {
		t.Error("an output at the cap was cut")
	}
	long := "HEAD" + strings.Repeat("é", maxOutput) + "TAIL" // 2 bytes a rune: cuts land mid-rune
	got := capOutput(long)
	if len(got) > maxOutput || !strings.HasPrefix(got, "HEAD") || !strings.HasSuffix(got, "TAIL") ||
		!strings.Contains(got, "bytes of output omitted") || !utf8.ValidString(got) {
		t.Errorf("capped output: %d bytes, valid UTF-8 %v, head %q, tail %q", len(got), utf8.ValidString(got), got[:8], got[len(got)-8:])
	}
}
