package plugin

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/internal/jsonrpc"
	"github.com/tandemhq/tandem/plugin/sdk"
)

// Model call limits: a plugin's calls are the user's money.
const (
	modelTimeout   = 2 * time.Minute
	modelMaxTokens = 4096
)

// model answers host/model: a call to the user's model on the plugin's
// behalf, only with permissions.ai and the user's separate consent. The
// plugin gets the text; the key stays in tandem.
func (i *instance) model(ctx context.Context, p sdk.ModelParams) (sdk.ModelResult, error) {
	switch {
	case !i.st.Manifest.Permissions.AI:
		return sdk.ModelResult{}, &jsonrpc.Error{Code: sdk.CodeDenied, Message: "model calls need permissions.ai"}
	case !i.aiConsent():
		return sdk.ModelResult{}, &jsonrpc.Error{Code: sdk.CodeDenied, Message: fmt.Sprintf(
			"the user has not agreed to model calls by %s (tandem plugin enable --allow-ai %s)", i.name(), i.name())}
	case i.rt.o.Provider == nil:
		return sdk.ModelResult{}, &jsonrpc.Error{Code: sdk.CodeDenied, Message: "no model is configured"}
	case len(p.Messages) == 0:
		return sdk.ModelResult{}, jsonrpc.InvalidParams("messages is empty")
	}
	req := &llm.Request{Model: p.Model, System: p.System, MaxTokens: min(max(p.MaxTokens, 1), modelMaxTokens)}
	if req.Model == "" {
		req.Model = i.rt.o.Model
	}
	if p.MaxTokens == 0 {
		req.MaxTokens = modelMaxTokens
	}
	for _, m := range p.Messages {
		role := llm.Role(m.Role)
		if role != llm.RoleUser && role != llm.RoleAssistant {
			return sdk.ModelResult{}, jsonrpc.InvalidParams("role must be user or assistant, not %q", m.Role)
		}
		req.Messages = append(req.Messages, llm.Text(role, m.Text))
	}
	ctx, cancel := context.WithTimeout(ctx, modelTimeout)
	defer cancel()
	resp, err := i.rt.o.Provider.Stream(ctx, req, func(llm.Event) {})
	if err != nil {
		return sdk.ModelResult{}, fmt.Errorf("the model call failed: %w", err)
	}
	var text strings.Builder
	for _, part := range resp.Message.Content {
		if part.Type == llm.PartText {
			text.WriteString(part.Text)
		}
	}
	i.log.Info("model call", "model", req.Model, "input_tokens", resp.Usage.InputTokens, "output_tokens", resp.Usage.OutputTokens)
	return sdk.ModelResult{Text: text.String(), StopReason: string(resp.StopReason),
		InputTokens: resp.Usage.InputTokens, OutputTokens: resp.Usage.OutputTokens}, nil
}
