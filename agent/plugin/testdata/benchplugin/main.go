// Command benchplugin is the plugin the benchmarks hook into every tool
// call: its before and after hooks answer at once, so what is measured is
// the host's cost per hook (the round trip over the pipes and JSON).
package main

import (
	"context"

	"github.com/tandemhq/tandem/plugin/sdk"
)

func main() {
	(&sdk.Plugin{
		BeforeToolCall: func(context.Context, *sdk.Host, sdk.BeforeToolCallParams) (sdk.BeforeToolCallResult, error) {
			return sdk.Allow(), nil
		},
		AfterToolCall: func(context.Context, *sdk.Host, sdk.AfterToolCallParams) (sdk.AfterToolCallResult, error) {
			return sdk.AfterToolCallResult{}, nil
		},
	}).Main()
}
