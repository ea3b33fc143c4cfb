package acp

import (
	"encoding/json"
	"os/exec"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// TestOpenAIResponses: with TANDEM_OPENAI_API=responses, `tandem acp`
// talks to /v1/responses; the reasoning summary reaches the editor as
// thought chunks; the encrypted reasoning is kept in the session file and,
// after a restart and session/load, sent back in the next request, whose
// prompt_cache_key is the session's id.
func TestOpenAIResponses(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Reasoning: []string{"weigh ", "it"}, Signature: "gAAAA-kept", Text: []string{"first answer"}},
		llmtest.Reply{Text: []string{"second answer"}})
	home := t.TempDir()
	start := func() *tandemProcess {
		cmd := exec.Command(testenv.Tandem(t), "acp")
		cmd.Env = append(withoutKeys(testenv.ModelEnv(home, srv.BaseURL(llmtest.Anthropic))), "TANDEM_LOG=debug",
			"TANDEM_PROVIDER=openai", "OPENAI_API_KEY=sk-responses-test", "OPENAI_BASE_URL="+srv.BaseURL(llmtest.Responses),
			"TANDEM_OPENAI_API=responses", "TANDEM_MODEL=o4-mini")
		p := startCmd(t, cmd, srv, home, newEditor(t))
		p.initialize(t, true, true)
		return p
	}
	sid := thinkAcrossRestart(t, start)
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[0].Path != "/v1/responses" || reqs[1].Path != "/v1/responses" {
		t.Fatalf("requests: %d, first to %s", len(reqs), reqs[0].Path)
	}
	var second struct {
		Store    bool   `json:"store"`
		CacheKey string `json:"prompt_cache_key"`
		Input    []struct {
			Type             string `json:"type"`
			EncryptedContent string `json:"encrypted_content"`
		} `json:"input"`
	}
	if err := json.Unmarshal(reqs[1].Body, &second); err != nil {
		t.Fatal(err)
	}
	carried := false
	for _, it := range second.Input {
		carried = carried || (it.Type == "reasoning" && it.EncryptedContent == "gAAAA-kept")
	}
	if !carried || second.Store || second.CacheKey != string(sid) {
		t.Errorf("second request: reasoning carried %v, store %v, prompt_cache_key %q (session %s): %s", carried, second.Store, second.CacheKey, sid, reqs[1].Body)
	}
	if got := reqs[1].Header.Get("Authorization"); got != "Bearer sk-responses-test" {
		t.Errorf("Authorization = %q", got)
	}
}
