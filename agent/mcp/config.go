package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
)

// Type is how tandem reaches a server.
type Type string

const (
	TypeStdio Type = "stdio" // a child process speaking JSON lines on stdin/stdout
	TypeHTTP  Type = "http"  // streamable HTTP
	TypeSSE   Type = "sse"   // the older HTTP+SSE transport
)

// NameValue is one environment variable or HTTP header, in the list shape
// ACP uses for both.
type NameValue struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Server is one MCP server a session connects to. Its JSON form is the
// entry ACP's session/new carries in mcpServers: stdio entries have no type
// (or "stdio"); http and sse entries say so.
type Server struct {
	Name    string
	Type    Type
	Command string
	Args    []string
	Env     []NameValue
	URL     string
	Headers []NameValue
}

// wireServer reads every ACP variant of Server.
type wireServer struct {
	Name    string      `json:"name"`
	Type    Type        `json:"type"`
	Command string      `json:"command"`
	Args    []string    `json:"args"`
	Env     []NameValue `json:"env"`
	URL     string      `json:"url"`
	Headers []NameValue `json:"headers"`
}

// UnmarshalJSON reads an ACP mcpServers entry. A missing type means stdio.
func (s *Server) UnmarshalJSON(b []byte) error {
	var w wireServer
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*s = Server(w)
	if s.Type == "" {
		s.Type = TypeStdio
	}
	// Empty and missing lists mean the same; keep one form.
	s.Args, s.Env, s.Headers = nilIfEmpty(s.Args), nilIfEmpty(s.Env), nilIfEmpty(s.Headers)
	return nil
}

func nilIfEmpty[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return s
}

// MarshalJSON writes the ACP shape: stdio entries carry no type and always
// args and env; http and sse entries always headers, as ACP's schema has it.
func (s Server) MarshalJSON() ([]byte, error) {
	if s.Type == TypeHTTP || s.Type == TypeSSE {
		return json.Marshal(struct {
			Type    Type        `json:"type"`
			Name    string      `json:"name"`
			URL     string      `json:"url"`
			Headers []NameValue `json:"headers"`
		}{s.Type, s.Name, s.URL, orEmpty(s.Headers)})
	}
	return json.Marshal(struct {
		Name    string      `json:"name"`
		Command string      `json:"command"`
		Args    []string    `json:"args"`
		Env     []NameValue `json:"env"`
	}{s.Name, s.Command, orEmpty(s.Args), orEmpty(s.Env)})
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// ErrInvalidServer marks a server entry tandem cannot use.
var ErrInvalidServer = errors.New("invalid MCP server entry")

// Validate reports what is wrong with an entry, naming the field to fix.
func (s Server) Validate() error {
	if s.Name == "" {
		return fmt.Errorf("%w: name is empty", ErrInvalidServer)
	}
	switch s.Type {
	case TypeStdio, "":
		if s.Command == "" {
			return fmt.Errorf("%w: server %q: stdio needs a command", ErrInvalidServer, s.Name)
		}
	case TypeHTTP, TypeSSE:
		u, err := url.Parse(s.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("%w: server %q: url must be an http(s) URL, got %q", ErrInvalidServer, s.Name, s.URL)
		}
	default:
		return fmt.Errorf("%w: server %q: type must be stdio, http or sse, got %q", ErrInvalidServer, s.Name, s.Type)
	}
	return nil
}

// Merge combines server lists given from lowest to highest precedence
// (user, project, editor): on a name clash the later entry replaces the
// earlier one in place, so the order servers were first named is kept.
func Merge(lists ...[]Server) []Server {
	var out []Server
	at := map[string]int{}
	for _, list := range lists {
		for _, s := range list {
			if i, ok := at[s.Name]; ok {
				out[i] = s
				continue
			}
			at[s.Name] = len(out)
			out = append(out, s)
		}
	}
	return out
}
