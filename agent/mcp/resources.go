package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Resource is one resource a server lists.
type Resource struct {
	Server      string
	URI         string
	Name        string
	Description string
	MIMEType    string
}

// maxResources bounds one server's listing, which some servers make long.
const maxResources = 500

// HasResources reports whether a ready server offers resources.
func (m *Manager) HasResources() bool { return len(m.resourceServers("")) > 0 }

// ErrNoResources is returned when no ready server offers resources.
var ErrNoResources = errors.New("no MCP server of this session offers resources")

// Resources lists the resources of server, or of every ready server that
// offers resources when server is "".
func (m *Manager) Resources(ctx context.Context, server string) ([]Resource, error) {
	var out []Resource
	for _, s := range m.resourceServers(server) {
		cs, why := s.currentSession()
		if cs == nil {
			return nil, errors.New(why)
		}
		lctx, cancel := context.WithTimeout(ctx, m.opts.CallTimeout)
		n := 0
		for r, err := range cs.Resources(lctx, nil) {
			if err != nil {
				cancel()
				return nil, fmt.Errorf("MCP server %q: listing resources: %w", s.cfg.Name, err)
			}
			if n++; n > maxResources {
				break
			}
			out = append(out, Resource{Server: s.cfg.Name, URI: r.URI, Name: r.Name, Description: r.Description, MIMEType: r.MIMEType})
		}
		cancel()
	}
	return out, nil
}

// ReadResource reads uri from server, or, when server is "", from the
// first ready server offering resources that can read it. Text comes back
// as it is; binary contents are described, not passed.
func (m *Manager) ReadResource(ctx context.Context, server, uri string) (string, error) {
	servers := m.resourceServers(server)
	if len(servers) == 0 {
		if server != "" {
			return "", fmt.Errorf("MCP server %q is not connected or offers no resources", server)
		}
		return "", ErrNoResources
	}
	var errs []error
	for _, s := range servers {
		cs, why := s.currentSession()
		if cs == nil {
			errs = append(errs, errors.New(why))
			continue
		}
		rctx, cancel := context.WithTimeout(ctx, m.opts.CallTimeout)
		r, err := cs.ReadResource(rctx, &sdk.ReadResourceParams{URI: uri})
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return "", ctx.Err()
			}
			errs = append(errs, fmt.Errorf("MCP server %q: %w", s.cfg.Name, err))
			continue
		}
		return resourceText(r.Contents), nil
	}
	return "", errors.Join(errs...)
}

// resourceServers are the ready servers (the named one only, when name is
// set) whose capabilities include resources.
func (m *Manager) resourceServers(name string) []*server {
	var out []*server
	for _, s := range m.list() {
		if name != "" && s.cfg.Name != name {
			continue
		}
		s.stateMu.Lock()
		ok := s.state == stateReady && s.resources
		s.stateMu.Unlock()
		if ok {
			out = append(out, s)
		}
	}
	return out
}

// resourceText joins a resource's text contents; binary ones are named,
// not passed.
func resourceText(contents []*sdk.ResourceContents) string {
	var parts []string
	for _, c := range contents {
		switch {
		case c == nil:
		case c.Blob != nil:
			parts = append(parts, fmt.Sprintf("[%s: %s, %d bytes of binary data omitted]", c.URI, orUnknown(c.MIMEType), len(c.Blob)))
		default:
			parts = append(parts, c.Text)
		}
	}
	return capOutput(strings.Join(parts, "\n"))
}
