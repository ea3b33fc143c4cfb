package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// With profiles in config.json, each request reaches the provider of its
// model, and the model list offers only what routes back to its lister.
func TestRoutedProviderSendsEachModelToItsProvider(t *testing.T) {
	ant, oai := llmtest.NewServer(t), llmtest.NewServer(t)
	ant.Enqueue(llmtest.Reply{Text: []string{"from anthropic"}})
	oai.Enqueue(llmtest.Reply{Text: []string{"from the local server"}})
	oai.ServeModels("qwen3:8b", "llama3.3", "claude-sonnet-4-5")
	home := t.TempDir()
	file := `{"provider": "anthropic", "anthropicApiKey": "sk-ant-test", "anthropicBaseUrl": "` + ant.URL + `",
		"profiles": {"local": {"provider": "openai-chat", "openaiBaseUrl": "` + oai.BaseURL(llmtest.OpenAI) + `", "models": ["qwen3:8b"], "modelPrefixes": ["llama"]}}}`
	if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(func(k string) string { return map[string]string{"TANDEM_HOME": home}[k] })
	if err != nil {
		t.Fatal(err)
	}
	p, err := newProvider(cfg, llm.Transport{}, nil)
	if err != nil || p == nil {
		t.Fatalf("newProvider = %v, %v", p, err)
	}
	ask := func(model string) string {
		resp, err := p.Stream(context.Background(), &llm.Request{Model: model, Messages: []llm.Message{llm.Text(llm.RoleUser, "hi")}}, func(llm.Event) {})
		if err != nil {
			t.Fatalf("%s: %v", model, err)
		}
		return resp.Message.Content[0].Text
	}
	if got := ask("qwen3:8b"); got != "from the local server" {
		t.Errorf("qwen3:8b answered %q", got)
	}
	if got := ask("claude-sonnet-4-5"); got != "from anthropic" {
		t.Errorf("claude answered %q", got)
	}
	if r := oai.Requests(); len(r) != 1 || r[0].Model != "qwen3:8b" {
		t.Errorf("local server got %+v", r)
	}
	ids, err := modelLister(cfg, nil)(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// claude-sonnet-4-5 is listed by the local server but routes to the
	// default: offered it would reach another provider.
	if !slices.Contains(ids, "qwen3:8b") || !slices.Contains(ids, "llama3.3") || slices.Contains(ids, "claude-sonnet-4-5") {
		t.Errorf("listed %q", ids)
	}
	if p.Name() != "anthropic" {
		t.Errorf("Name = %q", p.Name())
	}
}
