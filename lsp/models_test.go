package lsp_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// TestSetModel: tandem/newSession names the session's model and those it
// may switch to (config.json "models"); tandem/setModel switches, the next
// model request uses the new id, and an id not offered is refused.
func TestSetModel(t *testing.T) {
	t.Parallel()
	model := llmtest.NewServer(t)
	model.Enqueue(llmtest.Reply{Text: []string{"hi"}})
	home, root := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"models":["fake-b"]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	c := startClient(t, fakeModelEnvHome(t, model, home))
	c.initialize(root, map[string]any{})
	type models struct {
		CurrentModelID  string `json:"currentModelId"`
		AvailableModels []struct {
			ModelID string `json:"modelId"`
		} `json:"availableModels"`
	}
	var res struct {
		SessionID string `json:"sessionId"`
		Models    models `json:"models"`
	}
	c.mustCall("tandem/newSession", map[string]any{"cwd": root}, &res)
	offered := map[string]bool{}
	for _, m := range res.Models.AvailableModels {
		offered[m.ModelID] = true
	}
	if res.Models.CurrentModelID == "" || !offered[res.Models.CurrentModelID] || !offered["fake-b"] {
		t.Fatalf("models %+v, want the current one and fake-b offered", res.Models)
	}
	if _, err := c.call("tandem/setModel", map[string]any{"sessionId": res.SessionID, "modelId": "nope"}); err == nil {
		t.Error("tandem/setModel accepted a model that is not offered")
	}
	var set models
	c.mustCall("tandem/setModel", map[string]any{"sessionId": res.SessionID, "modelId": "fake-b"}, &set)
	if set.CurrentModelID != "fake-b" {
		t.Errorf("after setModel the current model is %q", set.CurrentModelID)
	}
	var pr struct {
		StopReason string `json:"stopReason"`
	}
	c.mustCall("tandem/prompt", map[string]any{"sessionId": res.SessionID, "prompt": []map[string]string{{"type": "text", "text": "hello"}}}, &pr)
	reqs := model.Requests()
	if len(reqs) == 0 || reqs[len(reqs)-1].Model != "fake-b" {
		t.Errorf("the model request went to %v, want fake-b", reqs)
	}
}
