package plugin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sync"
	"time"

	"github.com/tandemhq/tandem/agent/tools"
	"github.com/tandemhq/tandem/plugin/sdk"
)

// toolNameRE is what a plugin may call a tool; the model sees
// plugin__<plugin>__<tool>, which providers cap at 64 characters.
var toolNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`) })

const maxToolName = 64

// toolTimeout bounds one call of a plugin tool.
const toolTimeout = 5 * time.Minute

// ToolName is the model-facing name of a plugin's tool.
func ToolName(plugin, tool string) string { return "plugin__" + plugin + "__" + tool }

// pluginTool is one tool a plugin offers, called over its process. Like an
// MCP tool it is in the mcp group: the same policy asks before it runs
// (and "Always allow" remembers it), and ask mode does not offer it.
type pluginTool struct {
	inst   *instance
	remote string
	info   tools.Info
}

var _ tools.Tool = (*pluginTool)(nil)

// tools turns the plugin's offer into tools, dropping (and logging) those
// with unusable names or schemas, and all of them without
// permissions.tools.
func (i *instance) tools(defs []sdk.ToolDef) []tools.Tool {
	if len(defs) > 0 && !i.st.Manifest.Permissions.Tools {
		i.log.Warn("tools offered without permissions.tools; not used", "tools", len(defs))
		return nil
	}
	var out []tools.Tool
	for _, d := range defs {
		name := ToolName(i.name(), d.Name)
		if !toolNameRE().MatchString(d.Name) || len(name) > maxToolName {
			i.log.Warn("tool not used: its name must be [A-Za-z0-9_-] and fit 64 characters with its prefix", "tool", d.Name)
			continue
		}
		schema := d.InputSchema
		var probe map[string]any
		if len(schema) == 0 || json.Unmarshal(schema, &probe) != nil {
			schema = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		out = append(out, &pluginTool{inst: i, remote: d.Name, info: tools.Info{
			Name: name, Group: tools.GroupMCP, Kind: tools.KindOther,
			Description: d.Description, Schema: schema,
		}})
	}
	return out
}

func (t *pluginTool) Info() tools.Info { return t.info }

// Describe titles a call "<tool> (<plugin> plugin)".
func (t *pluginTool) Describe(string, json.RawMessage) tools.Preview {
	return tools.Preview{Title: fmt.Sprintf("%s (%s plugin)", t.remote, t.inst.name())}
}

// Run asks as the policy wants, then calls the plugin. A plugin that is
// down, fails or answers nonsense gives the model an error result; only
// the caller's cancellation is an error.
func (t *pluginTool) Run(ctx context.Context, env *tools.Env, input json.RawMessage) (tools.Result, error) {
	if env != nil && env.Ask != nil {
		err := env.Ask(ctx, tools.Ask{Title: t.Describe(env.Root, input).Title, Kind: t.info.Kind})
		if errors.Is(err, tools.ErrRejected) {
			msg := "The user rejected this call."
			if err != tools.ErrRejected {
				msg = err.Error()
			}
			return tools.Result{Output: msg, IsError: true}, nil
		}
		if err != nil {
			return tools.Result{}, err
		}
	}
	p := t.inst.current("")
	if p == nil {
		return tools.Result{Output: fmt.Sprintf("The %s plugin is not running; its tool %s is unavailable.", t.inst.name(), t.remote), IsError: true}, nil
	}
	var res sdk.CallToolResult
	err := t.inst.call(ctx, p, sdk.MethodToolsCall, toolTimeout, sdk.CallToolParams{Name: t.remote, Arguments: input, SessionID: t.inst.sess.id}, &res)
	switch {
	case err == nil:
		return tools.Result{Output: res.TextOf(), IsError: res.IsError}, nil
	case ctx.Err() != nil:
		return tools.Result{}, ctx.Err()
	}
	return tools.Result{Output: fmt.Sprintf("The %s plugin's tool %s failed: %v", t.inst.name(), t.remote, err), IsError: true}, nil
}
