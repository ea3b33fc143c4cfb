package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// FileName is the name of the config file in $TANDEM_HOME and in
// <root>/.tandem.
const FileName = "mcp.json"

// fileConfig is mcp.json:
//
//	{
//	  "servers": {
//	    "fs":     {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem"],
//	               "env": {"DEBUG": "1"}},
//	    "search": {"type": "http", "url": "https://example.com/mcp",
//	               "headers": {"Authorization": "Bearer ..."}}
//	  }
//	}
//
// type is stdio, http or sse ("streamable-http" and "streamableHttp", as
// other clients' files spell streamable HTTP, are http); left out it is
// stdio when a command is given and http when a url is. "mcpServers" is accepted in place of "servers" so
// a file written for another MCP client can be copied as it is. Command,
// args, url and the values of env and headers may name environment
// variables as ${NAME} or ${NAME:-default}.
type fileConfig struct {
	Servers    map[string]fileServer `json:"servers"`
	MCPServers map[string]fileServer `json:"mcpServers"`
}

type fileServer struct {
	Type    Type              `json:"type"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
}

// ParseFile reads the servers of one mcp.json, with ${NAME} references
// taken from the process environment. Entries that are not usable are left
// out and reported in the error, next to the ones that are.
func ParseFile(data []byte) ([]Server, error) {
	return parseFile(data, os.LookupEnv)
}

func parseFile(data []byte, lookup func(string) (string, bool)) ([]Server, error) {
	var fc fileConfig
	if err := json.Unmarshal(data, &fc); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidServer, err)
	}
	entries := fc.Servers
	if entries == nil {
		entries = fc.MCPServers
	}
	var out []Server
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(entries)) {
		e, err := expandServer(entries[name], lookup)
		if err != nil {
			errs = append(errs, fmt.Errorf("%w %q: %w", ErrInvalidServer, name, err))
			continue
		}
		s := Server{Name: name, Type: e.Type, Command: e.Command, Args: e.Args, URL: e.URL,
			Env: pairs(e.Env), Headers: pairs(e.Headers)}
		switch s.Type {
		case "streamable-http", "streamableHttp":
			s.Type = TypeHTTP
		case "":
			s.Type = TypeStdio
			if s.Command == "" && s.URL != "" {
				s.Type = TypeHTTP
			}
		}
		if err := s.Validate(); err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, s)
	}
	return out, errors.Join(errs...)
}

// LoadFile reads one mcp.json. A missing file is no servers and no error.
func LoadFile(path string) ([]Server, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	servers, err := ParseFile(data)
	if err != nil {
		return servers, fmt.Errorf("%s: %w", path, err)
	}
	return servers, nil
}

// UserFile is the user's mcp.json in $TANDEM_HOME.
func UserFile(home string) string { return filepath.Join(home, FileName) }

// ProjectFile is a project's mcp.json. Its servers are commands a cloned
// repository asks to run; a front door may want the user's consent before
// starting them (LoadFile each, then Merge).
func ProjectFile(root string) string { return filepath.Join(root, ".tandem", FileName) }

func pairs(m map[string]string) []NameValue {
	if len(m) == 0 {
		return nil
	}
	out := make([]NameValue, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, NameValue{Name: k, Value: m[k]})
	}
	return out
}

// String names a server for messages, never showing env values or headers
// (they often hold secrets).
func (s Server) String() string {
	switch s.Type {
	case TypeHTTP, TypeSSE:
		shown := s.URL
		if u, err := url.Parse(s.URL); err == nil {
			u.RawQuery, u.User = "", nil // tokens hide there
			shown = u.String()
		}
		return fmt.Sprintf("%s (%s %s)", s.Name, s.Type, shown)
	}
	return fmt.Sprintf("%s (%s)", s.Name, strings.Join(append([]string{s.Command}, s.Args...), " "))
}
