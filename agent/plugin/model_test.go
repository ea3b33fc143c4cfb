package plugin_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/plugin"
)

// host/model needs permissions.ai and, separately, the user's consent;
// with both the plugin gets the model's answer and never the key.
func TestModelCallNeedsAIConsent(t *testing.T) {
	r := newRig(t)
	perms := map[string]any{"tools": true, "ai": true}
	dir := pyPlugin(t, filepath.Join(r.home, "plugins"), "thinker", map[string]any{"permissions": perms})
	enable(t, r.home, "thinker", dir, map[string]any{"tool": "think", "modelTool": true})
	call := llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "plugin__thinker__think", Args: `{"text":"2+2?"}`}}}
	r.srv.Enqueue(call, llmtest.Reply{Text: []string{"ok"}})
	s, _ := r.session(t, agent.ModeFullAuto)
	prompt(t, s, "think")
	if got := r.srv.Requests()[1].LastUserText(); !strings.Contains(got, "refused: the user has not agreed to model calls by thinker") {
		t.Errorf("without consent: %q", got)
	}

	cat, err := r.rt.Load(r.root)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cat.Enable("thinker", true); err != nil {
		t.Fatal(err)
	}
	waitConsent(t, r)
	r.srv.Enqueue(call, llmtest.Reply{Text: []string{"four"}}, llmtest.Reply{Text: []string{"ok"}})
	prompt(t, s, "think again")
	reqs := r.srv.Requests()
	if len(reqs) != 5 {
		t.Fatalf("%d requests", len(reqs))
	}
	if reqs[3].System != "Answer briefly." || reqs[3].LastUserText() != "2+2?" {
		t.Errorf("the plugin's request: %q %q", reqs[3].System, reqs[3].LastUserText())
	}
	if got := reqs[4].LastUserText(); got != "model said: four" {
		t.Errorf("with consent: %q", got)
	}
}

// waitConsent waits until plugins.json records the consent (the runtime
// restarts the plugin with it at the next turn).
func waitConsent(t *testing.T, r *rig) {
	t.Helper()
	st, err := plugin.LoadState(r.home)
	if err != nil || !st.Plugins["thinker"].AIConsent {
		t.Fatalf("consent not recorded: %v", err)
	}
}
