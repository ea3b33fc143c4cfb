package mcp

import (
	"fmt"
	"strings"
)

// expand replaces ${NAME} and ${NAME:-default} in s with the environment's
// values, so a committed mcp.json can name a secret without holding it. A
// bare $NAME is left alone: arguments use $ for other things. A variable
// that is unset and has no default is an error naming it.
func expand(s string, lookup func(string) (string, bool)) (string, error) {
	if !strings.Contains(s, "${") {
		return s, nil
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return "", fmt.Errorf("%q has a ${ without its closing }", s)
		}
		b.WriteString(s[:i])
		ref := s[i+2 : i+j]
		name, def, hasDef := strings.Cut(ref, ":-")
		if !validVarName(name) {
			return "", fmt.Errorf("${%s} is not a variable reference (use ${NAME} or ${NAME:-default})", ref)
		}
		v, ok := lookup(name)
		switch {
		case ok && (v != "" || !hasDef):
			b.WriteString(v)
		case hasDef:
			b.WriteString(def)
		default:
			return "", fmt.Errorf("environment variable %s is not set (give it a value, or a default with ${%s:-default})", name, name)
		}
		s = s[i+j+1:]
	}
}

func validVarName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for _, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// expandServer expands the variables in every field of a file's server
// entry that can carry one.
func expandServer(e fileServer, lookup func(string) (string, bool)) (fileServer, error) {
	var err error
	x := func(s string) string {
		if err != nil {
			return s
		}
		var out string
		out, err = expand(s, lookup)
		return out
	}
	out := fileServer{Type: e.Type, Command: x(e.Command), URL: x(e.URL)}
	for _, a := range e.Args {
		out.Args = append(out.Args, x(a))
	}
	if e.Env != nil {
		out.Env = make(map[string]string, len(e.Env))
		for k, v := range e.Env {
			out.Env[k] = x(v)
		}
	}
	if e.Headers != nil {
		out.Headers = make(map[string]string, len(e.Headers))
		for k, v := range e.Headers {
			out.Headers[k] = x(v)
		}
	}
	return out, err
}
