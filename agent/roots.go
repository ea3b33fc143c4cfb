package agent

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tandemhq/tandem/agent/tools"
)

// A session has one primary root (its cwd) and any number of additional
// roots (ACP's additionalDirectories, LSP's further workspace folders).
// Every root is readable and writable under the same rules: tools resolve
// an absolute path inside any of them, the policy judges a path against the
// root that holds it, and commands may write all of them (their protected
// entries read-only in the sandbox, like the primary's). Each root has its
// own code index and its own workspace instructions, tracked like the
// primary's; the repository map covers every root. Relative paths and the
// settings files stay the primary root's, and the roots are fixed for the
// session: the system prompt names them and must stay byte-stable.

// additionalRoots checks dirs (absolute, existing directories) and returns
// them with symlinks resolved, without the primary root or repeats.
func additionalRoots(dirs []string, primary string) ([]string, error) {
	var out []string
	for _, d := range dirs {
		if !filepath.IsAbs(d) {
			return nil, fmt.Errorf("%w: additional directory %q is not absolute", ErrInvalidCwd, d)
		}
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("%w: additional directory %q is not an existing directory", ErrInvalidCwd, d)
		}
		real, err := filepath.EvalSymlinks(d)
		if err != nil {
			return nil, fmt.Errorf("%w: additional directory %q: %v", ErrInvalidCwd, d, err)
		}
		if real == primary || containsString(out, real) {
			continue
		}
		out = append(out, real)
	}
	return out, nil
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// AdditionalRoots returns the session's additional roots (symlinks
// resolved); nil for a one-root session.
func (s *Session) AdditionalRoots() []string { return s.roots }

// pathEnv is a tools.Env that only resolves paths across every root.
func (s *Session) pathEnv() *tools.Env { return &tools.Env{Root: s.root, Roots: s.roots} }

// resolve is tools.Resolve over every root of the session.
func (s *Session) resolve(p string) (string, error) { return s.pathEnv().Resolve(p) }

// RootOf is the root holding abs (the primary root when none does): the
// policy judges a path against it, and hosts confine an edit to it, so a
// path inside any root is inside the workspace.
func (s *Session) RootOf(abs string) string {
	if abs == "" {
		return s.root
	}
	return s.pathEnv().RootOf(abs)
}

// rootsPrompt is the system prompt's line about the additional roots;
// empty for a one-root session, so such a prompt is unchanged.
func (s *Session) rootsPrompt() string {
	if len(s.roots) == 0 {
		return ""
	}
	return "\nAdditional workspace roots (use absolute paths inside them): " + strings.Join(s.roots, ", ")
}
