// Command wordcount is an example tandem tool plugin, written with the Go
// SDK (plugin/sdk). It offers the model one tool, count_words, that reads
// a workspace file through the host (host/readFile: the plugin's
// permissions.filesystem decides what it may read) and counts it.
//
// Build it next to its plugin.json (go build -o wordcount .), then install
// and enable the folder: tandem plugin install . && tandem plugin enable wordcount.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tandemhq/tandem/plugin/sdk"
)

type settings struct {
	MaxBytes int `json:"maxBytes"`
}

func main() {
	var cfg settings
	p := &sdk.Plugin{
		Initialize: func(_ context.Context, _ *sdk.Host, in sdk.InitializeParams) error {
			return json.Unmarshal(in.Config, &cfg)
		},
		Tools: []sdk.Tool{{
			Def: sdk.ToolDef{
				Name:        "count_words",
				Description: "Count the lines, words and bytes of a file in the workspace.",
				InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string","description":"The file, relative to the workspace root."}},"required":["path"]}`),
			},
			Call: func(ctx context.Context, h *sdk.Host, in sdk.CallToolParams) (sdk.CallToolResult, error) {
				var args struct {
					Path string `json:"path"`
				}
				if err := json.Unmarshal(in.Arguments, &args); err != nil || args.Path == "" {
					return errResult("give the file as {\"path\": \"...\"}"), nil
				}
				text, err := h.ReadFile(ctx, args.Path)
				if err != nil {
					return errResult(fmt.Sprintf("cannot read %s: %v", args.Path, err)), nil
				}
				if len(text) > cfg.MaxBytes {
					return errResult(fmt.Sprintf("%s is larger than %d bytes", args.Path, cfg.MaxBytes)), nil
				}
				_ = h.Log(ctx, "info", "counted "+args.Path)
				return sdk.Text(fmt.Sprintf("%s: %d lines, %d words, %d bytes", args.Path,
					strings.Count(text, "\n"), len(strings.Fields(text)), len(text))), nil
			},
		}},
	}
	p.Main()
}

func errResult(msg string) sdk.CallToolResult {
	r := sdk.Text(msg)
	r.IsError = true
	return r
}
