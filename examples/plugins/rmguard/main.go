// Command rmguard is an example tandem policy plugin, written with the Go
// SDK (plugin/sdk). It refuses run_command calls that remove recursively
// and by force (rm -rf and its spellings) anything outside the workspace,
// and adds a rule saying so to the system prompt.
//
// Build it next to its plugin.json (go build -o rmguard .), then install
// and enable the folder: tandem plugin install . && tandem plugin enable rmguard.
package main

import (
	"context"
	"encoding/json"

	"github.com/tandemhq/tandem/plugin/sdk"
)

const rule = "Never remove files or folders outside the workspace; a recursive forced rm (rm -rf) outside it will be refused."

func main() {
	p := &sdk.Plugin{
		TransformSystemPrompt: func(_ context.Context, _ *sdk.Host, in sdk.TransformParams) (string, error) {
			return in.Prompt + "\n\n" + rule, nil
		},
		BeforeToolCall: func(_ context.Context, h *sdk.Host, in sdk.BeforeToolCallParams) (sdk.BeforeToolCallResult, error) {
			if in.Tool != "run_command" || len(h.Init.Roots) == 0 {
				return sdk.Allow(), nil
			}
			var args struct {
				Command string `json:"command"`
			}
			if json.Unmarshal(in.Arguments, &args) != nil {
				return sdk.Allow(), nil
			}
			if target, bad := outsideRemoval(args.Command, h.Init.Roots[0]); bad {
				return sdk.Deny("rm -rf of " + target + " is outside the workspace " + h.Init.Roots[0]), nil
			}
			return sdk.Allow(), nil
		},
	}
	p.Main()
}
