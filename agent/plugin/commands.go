package plugin

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/plugin/sdk"
)

// listWait bounds how long listing commands waits for plugins to start.
const listWait = 3 * time.Second

// commands offers the slash commands of a session's running plugins, as
// /<plugin>:<name>. A bundled plugin's commands also answer to their
// plain name (ExtCommand.Alias): tandem ships them, so they are part of
// its own command set, and the editor lists them under it, once (a
// built-in, a custom command or an MCP prompt of that name still wins,
// as the session looks those up first; the list then shows
// <plugin>:<name>).
func (r *Runtime) commands(s *agent.Session) []agent.ExtCommand {
	ss := r.lookup(s.ID())
	if ss == nil {
		return nil
	}
	// The session's first list (sent when the editor learns of it) waits,
	// briefly, for its plugins to start, so it holds their commands and
	// the editor needs no second list.
	ctx, cancel := context.WithTimeout(context.Background(), listWait)
	ss.waitReady(ctx)
	cancel()
	var out []agent.ExtCommand
	for _, in := range ss.instances() {
		for _, d := range in.commandDefs() {
			c := agent.ExtCommand{Name: in.name() + ":" + d.Name, Description: d.Description, Hint: d.Hint, Run: in.runCommand(d.Name)}
			if in.st.Scope == ScopeBundled {
				c.Alias = d.Name
			}
			out = append(out, c)
		}
	}
	return out
}

// commandDefs are the commands the running plugin offered and may offer.
func (i *instance) commandDefs() []sdk.CommandDef {
	i.mu.Lock()
	defer i.mu.Unlock()
	if !i.up || !i.st.Manifest.Permissions.Commands {
		return nil
	}
	var out []sdk.CommandDef
	for _, d := range i.offer.Commands {
		if toolNameRE().MatchString(d.Name) {
			out = append(out, d)
		}
	}
	return out
}

// runCommand calls commands/run. A command is the user's explicit
// request, so it is not held to the hook budget; the turn's context ends it.
func (i *instance) runCommand(name string) func(ctx context.Context, arg string) (string, error) {
	return func(ctx context.Context, arg string) (string, error) {
		p := i.current("")
		if p == nil {
			return "", errors.New("the " + i.name() + " plugin is not running")
		}
		var res sdk.RunCommandResult
		if err := i.call(ctx, p, sdk.MethodCommandRun, 0, sdk.RunCommandParams{SessionID: i.sess.id, Name: name, Arguments: arg}, &res); err != nil {
			return "", err
		}
		return strings.TrimRight(res.Text, "\n"), nil
	}
}
