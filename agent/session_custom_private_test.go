package agent

import (
	"testing"

	"github.com/tandemhq/tandem/agent/custom"
)

// Private commands and skills are not in the slash-command list, while a
// private skill is still in the model's skill list.
func TestPrivateCustomNotOffered(t *testing.T) {
	set := &custom.Set{
		Commands: []custom.Command{{Name: "ci:deploy"}, {Name: "ci:rollback", Private: true}},
		Skills:   []custom.Skill{{Name: "ci:stage", Description: "s"}, {Name: "ci:verify", Description: "v", Private: true}},
	}
	var names []string
	for _, c := range customCommands(set) {
		names = append(names, c.Name)
	}
	if len(names) != 2 || names[0] != "ci:deploy" || names[1] != "ci:stage" {
		t.Errorf("offered %v, want [ci:deploy ci:stage]", names)
	}
	if got, want := skillLines(set), "- ci:stage: s\n- ci:verify: v\n"; got != want {
		t.Errorf("the model's skills %q, want %q", got, want)
	}
}
