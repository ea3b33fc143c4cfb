package mcp

import (
	"context"
	"errors"
	"fmt"
	"slices"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Prompt is one prompt a server offers; the session shows it as the slash
// command /mcp:<server>:<name>.
type Prompt struct {
	Server      string
	Name        string
	Description string
	Arguments   []PromptArgument
}

// PromptArgument is one named argument of a prompt.
type PromptArgument struct {
	Name        string
	Description string
	Required    bool
}

// syncOffers lists the server's prompts, when it offers any, notes
// whether it offers resources, and announces a change. A server that fails
// to list its prompts keeps its tools: prompts are an extra.
func (s *server) syncOffers(cs *sdk.ClientSession) {
	caps := &sdk.ServerCapabilities{}
	if r := cs.InitializeResult(); r != nil && r.Capabilities != nil {
		caps = r.Capabilities
	}
	var list []Prompt
	if caps.Prompts != nil {
		var err error
		if list, err = s.listPrompts(cs); err != nil {
			s.log.Warn("mcp server: listing prompts failed", "err", err)
		}
	}
	s.stateMu.Lock()
	changed := !slices.EqualFunc(s.prompts, list, samePrompt) || s.resources != (caps.Resources != nil)
	s.prompts, s.resources = list, caps.Resources != nil
	s.stateMu.Unlock()
	if changed {
		s.m.events.push(event{offers: true})
	}
}

func (s *server) listPrompts(cs *sdk.ClientSession) ([]Prompt, error) {
	ctx, cancel := context.WithTimeout(s.ctx, s.m.opts.CallTimeout)
	defer cancel()
	var list []Prompt
	for p, err := range cs.Prompts(ctx, nil) {
		if err != nil {
			return nil, err
		}
		pr := Prompt{Server: s.cfg.Name, Name: p.Name, Description: p.Description}
		if pr.Description == "" {
			pr.Description = p.Title
		}
		for _, a := range p.Arguments {
			if a != nil {
				pr.Arguments = append(pr.Arguments, PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required})
			}
		}
		list = append(list, pr)
	}
	return list, nil
}

func samePrompt(a, b Prompt) bool {
	return a.Server == b.Server && a.Name == b.Name && a.Description == b.Description && slices.Equal(a.Arguments, b.Arguments)
}

// Prompts lists the prompts of the servers that are ready, server by server.
func (m *Manager) Prompts() []Prompt {
	var out []Prompt
	for _, s := range m.list() {
		s.stateMu.Lock()
		if s.state == stateReady {
			out = append(out, s.prompts...)
		}
		s.stateMu.Unlock()
	}
	return out
}

// ErrNoServer is returned for a server name the session does not have.
var ErrNoServer = errors.New("no such MCP server")

// GetPrompt fills in a server's prompt and returns its messages as one
// text, the way a user would have typed them.
func (m *Manager) GetPrompt(ctx context.Context, server, name string, args map[string]string) (string, error) {
	s := m.find(server)
	if s == nil {
		return "", fmt.Errorf("%w: %q", ErrNoServer, server)
	}
	cs, why := s.currentSession()
	if cs == nil {
		return "", errors.New(why)
	}
	ctx, cancel := context.WithTimeout(ctx, m.opts.CallTimeout)
	defer cancel()
	r, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		return "", fmt.Errorf("MCP server %q, prompt %q: %w", server, name, err)
	}
	var content []sdk.Content
	for _, msg := range r.Messages {
		if msg != nil && msg.Content != nil {
			content = append(content, msg.Content)
		}
	}
	return toResult(&sdk.CallToolResult{Content: content}).Output, nil
}

// find returns the server of that name.
func (m *Manager) find(name string) *server {
	for _, s := range m.list() {
		if s.cfg.Name == name {
			return s
		}
	}
	return nil
}
