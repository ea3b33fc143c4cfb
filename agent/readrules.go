package agent

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/tandemhq/tandem/agent/policy"
	"github.com/tandemhq/tandem/agent/tools"
)

// checkRead applies deny rules to a read tool's path: reads never ask, but
// a rule such as read_file(.env) or Claude Code's Read(secrets/**) refuses
// them. The path is resolved first, so a symlink to a denied file is
// denied too. A path that does not resolve is left to the tool, which
// refuses it with its own message.
func (s *Session) checkRead(e ToolCallEvent) error {
	if e.Tool.Group != tools.GroupRead {
		return nil
	}
	var args struct {
		Path string `json:"path"`
	}
	if json.Unmarshal(e.Input, &args) != nil || args.Path == "" {
		return nil
	}
	abs, err := tools.Resolve(s.root, args.Path)
	if err != nil {
		return nil
	}
	v := s.judge(policy.Mode(s.Mode()), policy.Call{Tool: e.Tool.Name, Group: e.Tool.Group, Root: s.root, Path: abs})
	if v.Decision == policy.Deny {
		return errors.New(strings.TrimSuffix(v.Reason, "."))
	}
	return nil
}
