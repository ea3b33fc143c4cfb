package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tandemhq/tandem/agent/custom"
	"github.com/tandemhq/tandem/agent/mcp"
)

// mcpPrefix starts the slash command of an MCP server's prompt:
// /mcp:<server>:<prompt>.
const mcpPrefix = "mcp:"

// list returns the session's MCP connections.
func (p *mcpServers) list() (ms []*mcp.Manager) {
	s := p.s
	s.read(func() { ms = slices.Clone(p.running) })
	return ms
}

// offersChanged runs when a server's prompts or resources change: the
// resource tools join the catalog once some server offers resources (and
// stay, so the tool list does not flap), and the editor gets the new
// command list.
func (p *mcpServers) offersChanged() {
	s := p.s
	ms := p.list()
	if slices.ContainsFunc(ms, (*mcp.Manager).HasResources) {
		s.do(context.Background(), func() {
			if _, ok := s.st.catalog.Get(mcp.ListResourcesName); !ok {
				for _, t := range mcp.ResourceTools(p.list) {
					s.st.catalog.Add(t)
				}
				s.viewChanged()
			}
		})
	}
	s.emitLive(Update{Type: AvailableCommandsUpdate, Commands: s.Commands()})
}

// mcpCommands lists the prompts of the session's MCP servers as commands.
func mcpCommands(ms []*mcp.Manager) []Command {
	var out []Command
	for _, m := range ms {
		for _, p := range m.Prompts() {
			c := Command{Name: mcpPrefix + p.Server + ":" + p.Name, Description: fmt.Sprintf("%s (%s MCP prompt)", p.Description, p.Server)}
			if hint := promptHint(p); hint != "" {
				c.Input = &CommandInput{Hint: hint}
			}
			out = append(out, c)
		}
	}
	return out
}

// promptHint names a prompt's arguments: <required> [optional].
func promptHint(p mcp.Prompt) string {
	var parts []string
	for _, a := range p.Arguments {
		if a.Required {
			parts = append(parts, "<"+a.Name+">")
		} else {
			parts = append(parts, "["+a.Name+"]")
		}
	}
	return strings.Join(parts, " ")
}

// mcpRunner finds the MCP prompt /mcp:<server>:<prompt> names; running it
// fills the prompt in from the server and sends the result to the model
// as the user's message.
func (t *turnRun) mcpRunner(name string) (func(arg string) (StopReason, error), bool) {
	rest, found := strings.CutPrefix(name, mcpPrefix)
	if !found {
		return nil, false
	}
	// Matched whole: a plugin's server names hold a ':' themselves
	// (/mcp:<plugin>:<server>:<prompt>).
	for _, m := range t.s.mcp.list() {
		for _, p := range m.Prompts() {
			if p.Server+":"+p.Name == rest {
				return func(arg string) (StopReason, error) { return t.runMCPPrompt(m, p, name, arg) }, true
			}
		}
	}
	return nil, false
}

func (t *turnRun) runMCPPrompt(m *mcp.Manager, p mcp.Prompt, name, arg string) (StopReason, error) {
	args, missing := promptArgs(p, arg)
	if len(missing) > 0 {
		t.s.say(fmt.Sprintf("/%s needs %s: /%s %s", name, strings.Join(missing, ", "), name, promptHint(p)))
		return StopEndTurn, nil
	}
	text, err := m.GetPrompt(t.ctx, p.Server, p.Name, args)
	switch {
	case t.ctx.Err() != nil:
		return StopCancelled, nil
	case err != nil:
		t.s.say(fmt.Sprintf("/%s failed: %v", name, err))
		return StopEndTurn, nil
	}
	return t.converse([]ContentBlock{{Type: "text", Text: text}})
}

// promptArgs maps the words after a prompt's command to its arguments:
// name=value sets one by name; other words fill the rest in order, the
// last taking whatever is left, so a one-argument prompt gets the whole
// line. It returns the required arguments still missing.
func promptArgs(p mcp.Prompt, line string) (map[string]string, []string) {
	args := map[string]string{}
	known := map[string]bool{}
	for _, a := range p.Arguments {
		known[a.Name] = true
	}
	var loose []string
	for _, w := range custom.Words(line) {
		if k, v, ok := strings.Cut(w, "="); ok && known[k] {
			args[k] = v
			continue
		}
		loose = append(loose, w)
	}
	var open []string
	for _, a := range p.Arguments {
		if _, set := args[a.Name]; !set {
			open = append(open, a.Name)
		}
	}
	for i, name := range open {
		if len(loose) == 0 {
			break
		}
		if i == len(open)-1 {
			args[name] = strings.Join(loose, " ")
			loose = nil
			break
		}
		args[name], loose = loose[0], loose[1:]
	}
	var missing []string
	for _, a := range p.Arguments {
		if _, set := args[a.Name]; a.Required && !set {
			missing = append(missing, a.Name)
		}
	}
	return args, missing
}

// readResource reads a resource_link the editor put in a prompt from
// the session's MCP servers; ok is false when none could.
func (p *mcpServers) readResource(ctx context.Context, uri string) (string, error) {
	var errs []error
	for _, m := range p.list() {
		text, err := m.ReadResource(ctx, "", uri)
		if err == nil {
			return text, nil
		}
		if !errors.Is(err, mcp.ErrNoResources) {
			errs = append(errs, err)
		}
	}
	if len(errs) == 0 {
		return "", mcp.ErrNoResources
	}
	return "", errors.Join(errs...)
}

// linked is what the model reads for a resource_link that is no
// file: the resource's text from an MCP server, or a note naming it.
func (p *mcpServers) linked(ctx context.Context, b ContentBlock) string {
	text, err := p.readResource(ctx, b.URI)
	switch {
	case err == nil:
		return fmt.Sprintf("<resource uri=%q name=%q>\n%s\n</resource>", b.URI, b.Name, text)
	case errors.Is(err, mcp.ErrNoResources):
		return fmt.Sprintf("[linked resource %s (%s)]", b.Name, b.URI)
	}
	return fmt.Sprintf("[linked resource %s (%s) could not be read: %v]", b.Name, b.URI, err)
}
