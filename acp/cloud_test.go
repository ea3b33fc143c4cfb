package acp

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// bedrockEnv configures `tandem acp` for Bedrock against the fake, with
// static credentials in the environment and the developer's AWS files and
// instance metadata kept out of the chain.
func bedrockEnv(home, endpoint, token string) []string {
	return append(withoutKeys(testenv.ModelEnv(home, endpoint)), "TANDEM_LOG=debug",
		"TANDEM_PROVIDER=bedrock", "TANDEM_MODEL=us.anthropic.claude-sonnet-4-20250514-v1:0",
		"AWS_ACCESS_KEY_ID="+llmtest.AWSAccessKeyID, "AWS_SECRET_ACCESS_KEY="+llmtest.AWSSecretKey, "AWS_SESSION_TOKEN="+token,
		"AWS_REGION="+llmtest.AWSRegion, "AWS_ENDPOINT_URL_BEDROCK_RUNTIME="+endpoint, "AWS_PROFILE=",
		"AWS_CONFIG_FILE=/nonexistent/config", "AWS_SHARED_CREDENTIALS_FILE=/nonexistent/credentials", "AWS_EC2_METADATA_DISABLED=true")
}

// TestBedrockEndToEnd: with TANDEM_PROVIDER=bedrock, `tandem acp` signs
// ConverseStream requests with the environment's credentials (the fake
// checks the signature with the AWS SDK's signer); Claude's reasoning
// reaches the editor as thought chunks, is kept with its signature in the
// session file and, after a restart and session/load, sent back; the
// prompt cache's points sit at the stable prefix.
func TestBedrockEndToEnd(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Reasoning: []string{"weigh ", "it"}, Signature: "EqQBCkYIBxgCKkBsig-kept", Text: []string{"first answer"}},
		llmtest.Reply{Text: []string{"second answer"}})
	home := t.TempDir()
	start := func() *tandemProcess {
		cmd := exec.Command(testenv.Tandem(t), "acp")
		cmd.Env = bedrockEnv(home, srv.URL, "IQoJb3JpZ2luX2VjSESSIONtoken0123456789")
		p := startCmd(t, cmd, srv, home, newEditor(t))
		p.initialize(t, true, true)
		return p
	}
	thinkAcrossRestart(t, start)
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[1].Model != "us.anthropic.claude-sonnet-4-20250514-v1:0" {
		t.Fatalf("requests: %d", len(reqs))
	}
	var carried []llm.Part
	for _, m := range reqs[1].Messages {
		for _, part := range m.Content {
			if part.Type == llm.PartThinking {
				carried = append(carried, part)
			}
		}
	}
	if len(carried) != 1 || carried[0].Text != "weigh it" || carried[0].Signature() != "EqQBCkYIBxgCKkBsig-kept" {
		t.Errorf("thinking sent back: %+v", carried)
	}
	if n := strings.Count(string(reqs[1].Body), `{"cachePoint":{"type":"default"}}`); n != 3 {
		t.Errorf("%d cache points, want 3 (system, tools, last message)", n)
	}
	if err := llmtest.AppendOnly(llmtest.Bedrock, reqs[0].Body, reqs[1].Body); err != nil {
		t.Errorf("the second request does not extend the first: %v", err)
	}
}

// The secret key and session token, echoed by Bedrock in an error body
// and in a stream exception, leave tandem nowhere: not on stdout, stderr
// or in $TANDEM_HOME.
func TestBedrockCredentialsNeverLeave(t *testing.T) {
	const token = "FwoGZXIvYXdzPLANTEDsessionTOKEN0123456"
	echo := "The security token " + token + " (secret " + llmtest.AWSSecretKey + ") is invalid."
	for _, reply := range []llmtest.Reply{
		{Status: 403, Message: echo},
		{Text: []string{"partial "}, StreamError: echo, StreamErrorCode: "validationException"},
	} {
		srv := llmtest.NewServer(t)
		srv.Handle(func(*llmtest.Request) llmtest.Reply { return reply })
		home := t.TempDir()
		out, stderr, err := promptOnce(t, home, bedrockEnv(home, srv.URL, token)...)
		if err == nil {
			t.Error("the prompt succeeded")
		}
		if !strings.Contains(out, "[redacted]") {
			t.Errorf("the editor was not told the scrubbed error: %s", out)
		}
		all := out + stderr + filesUnder(t, home)
		for _, s := range []string{token, llmtest.AWSSecretKey} {
			if strings.Contains(all, s) {
				t.Errorf("%q left tandem (reply %+v)", s, reply)
			}
		}
	}
}

// TestAzureEndToEnd: with TANDEM_PROVIDER=azure, `tandem acp` sends the
// deployment's requests to Azure's v1 Responses path with the api-key
// header; reasoning is carried across turns as on OpenAI's own endpoint.
// With TANDEM_OPENAI_API=chat and a dated api-version it uses the
// deployments path.
func TestAzureEndToEnd(t *testing.T) {
	for _, c := range []struct{ api, version, path string }{
		{"", "", "/openai/v1/responses"},
		{"chat", "2024-10-21", "/openai/deployments/o4-mini-prod/chat/completions"},
	} {
		srv := llmtest.NewServer(t)
		srv.Enqueue(llmtest.Reply{Reasoning: []string{"weigh"}, Text: []string{"first"}}, llmtest.Reply{Text: []string{"second"}})
		home := t.TempDir()
		cmd := exec.Command(testenv.Tandem(t), "acp")
		cmd.Env = append(withoutKeys(testenv.ModelEnv(home, srv.URL)), "TANDEM_PROVIDER=azure", "TANDEM_MODEL=o4-mini-prod",
			"AZURE_OPENAI_ENDPOINT="+srv.URL, "AZURE_OPENAI_API_KEY=azure-e2e-KEY-0123456789", "OPENAI_API_VERSION="+c.version,
			"TANDEM_OPENAI_API="+c.api, "AZURE_OPENAI_AD_TOKEN=", "AZURE_CLIENT_SECRET=")
		p := startCmd(t, cmd, srv, home, newEditor(t))
		p.initialize(t, true, true)
		sid := p.newSession(t, workspace(t, nil))
		for _, text := range []string{"one", "two"} {
			if _, err := p.prompt(t, sid, text); err != nil {
				t.Fatal(err)
			}
		}
		p.closeAndWait(t)
		reqs := srv.Requests()
		if len(reqs) != 2 || reqs[1].Path != c.path || reqs[1].Header.Get("Api-Key") != "azure-e2e-KEY-0123456789" || reqs[1].Model != "o4-mini-prod" {
			t.Fatalf("%s: %d requests, last to %s", c.path, len(reqs), reqs[len(reqs)-1].Path)
		}
		var th []llm.Part
		for _, m := range reqs[1].Messages {
			for _, part := range m.Content {
				if part.Type == llm.PartThinking {
					th = append(th, part)
				}
			}
		}
		if len(th) != 1 || th[0].Text != "weigh" {
			t.Errorf("%s: reasoning sent back: %+v", c.path, th)
		}
	}
}
