package agent

import (
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"

	"github.com/tandemhq/tandem/agent/policy"
	"github.com/tandemhq/tandem/agent/tools"
)

// checkRead applies deny rules to a read tool's path: reads never ask, but
// a rule such as read_file(.env) or Claude Code's Read(secrets/**) refuses
// them. The path is resolved first, so a symlink to a denied file is
// denied too. A path that does not resolve is left to the tool, which
// refuses it with its own message. mode and rs are the session's mode
// and rules as the call's checks found them.
func (p *permissions) checkRead(mode Mode, e ToolCallEvent, rs policy.Rules) error {
	s := p.s
	if e.Tool.Group != tools.GroupRead {
		return nil
	}
	var args struct {
		Path string `json:"path"`
	}
	if json.Unmarshal(e.Input, &args) != nil || args.Path == "" {
		return nil
	}
	abs, err := s.resolve(args.Path)
	if err != nil {
		return nil
	}
	v := judgeWith(policy.Mode(mode), policy.Call{Tool: e.Tool.Name, Group: e.Tool.Group, Root: s.RootOf(abs), Path: abs}, rs)
	if v.Decision == policy.Deny {
		return errors.New(strings.TrimSuffix(v.Reason, "."))
	}
	return nil
}

// readHidden is the test tools.Env.Hidden runs for a read tool: a file is
// hidden when a deny rule refuses reading it with this tool or with
// read_file (searching a file reads it), under the rules rs. Nil when no
// deny rule names a read tool, which is the common case and costs nothing
// per file. m is the session's mode.
func (p *permissions) readHidden(m Mode, info tools.Info, rs policy.Rules) func(string) bool {
	s := p.s
	if info.Group != tools.GroupRead {
		return nil
	}
	if !slices.ContainsFunc(rs.Deny, func(r policy.Rule) bool { return r.Tool == info.Name || r.Tool == tools.ReadFileName }) {
		return nil
	}
	home, _ := os.UserHomeDir()
	mode := policy.Mode(m)
	return func(abs string) bool {
		paths := []string{abs}
		if real, err := s.resolve(abs); err != nil {
			return true // a link out of the workspace: the tools skip it anyway
		} else if real != abs {
			paths = append(paths, real) // a symlink to a denied file is denied
		}
		for _, path := range paths {
			for _, name := range []string{info.Name, tools.ReadFileName} {
				c := policy.Call{Tool: name, Group: tools.GroupRead, Root: s.RootOf(path), Path: path, Home: home}
				if policy.Decide(mode, c, rs).Decision == policy.Deny {
					return true
				}
			}
		}
		return false
	}
}
