package completion_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/llm/openai"
	"github.com/tandemhq/tandem/completion"
)

// newEngine returns an engine for cfg and a document path in a workspace.
func newEngine(t *testing.T, cfg config.Completion, o completion.Options) (*completion.Engine, string) {
	t.Helper()
	cfg.DebounceMs = -1
	o.Config = cfg
	e, err := completion.New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Close)
	root := t.TempDir()
	return e, root
}

func ask(t *testing.T, e *completion.Engine, root string, before, after string) completion.Result {
	t.Helper()
	res, err := e.Complete(context.Background(), completion.Request{
		Doc: filepath.Join(root, "main.py"), Root: root, Before: before, After: after, Invoked: true,
		Open: []completion.OpenFile{{Path: filepath.Join(root, "util.py"), Text: "def helper():\n    return 1\n"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Each provider speaks its wire: the endpoint, where prefix, suffix and
// context go, the key, and the stream's shape.
func TestWires(t *testing.T) {
	cases := []struct {
		provider, model, wire, path string
		check                       func(t *testing.T, r *llmtest.FIMRequest)
	}{
		{"ollama", "codellama:7b-code", "ollama", "/api/generate", func(t *testing.T, r *llmtest.FIMRequest) {
			want := "<PRE> # Path: util.py\n# def helper():\n#     return 1\n# Path: main.py\ndef f():  <SUF>\nprint(f()) <MID>"
			if !r.Raw || r.Prompt != want {
				t.Errorf("raw=%v prompt %q, want raw %q", r.Raw, r.Prompt, want)
			}
		}},
		{"ollama", "my-own-model", "ollama", "/api/generate", func(t *testing.T, r *llmtest.FIMRequest) {
			// An unknown model: prompt and suffix, the template places them.
			if r.Raw || r.Suffix != "\nprint(f())" || !strings.HasSuffix(r.Prompt, "# Path: main.py\ndef f(): ") {
				t.Errorf("raw=%v prompt %q suffix %q", r.Raw, r.Prompt, r.Suffix)
			}
		}},
		{"llamacpp", "", "llamacpp", "/infill", func(t *testing.T, r *llmtest.FIMRequest) {
			if r.Prompt != "def f(): " || r.Suffix != "\nprint(f())" || len(r.Extra) != 1 || r.Extra[0] != "util.py\ndef helper():\n    return 1\n" {
				t.Errorf("input_prefix %q input_suffix %q input_extra %q", r.Prompt, r.Suffix, r.Extra)
			}
		}},
		{"openai", "starcoder2-3b", "openai", "/v1/completions", func(t *testing.T, r *llmtest.FIMRequest) {
			want := "<repo_name>" + "ROOT" + "\n<file_sep>util.py\ndef helper():\n    return 1\n<file_sep>main.py\n<fim_prefix>def f(): <fim_suffix>\nprint(f())<fim_middle>"
			if r.Suffix != "" || !strings.HasSuffix(r.Prompt, want[strings.Index(want, "\n"):]) {
				t.Errorf("prompt %q suffix %q, want a raw StarCoder2 prompt", r.Prompt, r.Suffix)
			}
		}},
		{"openai", "gpt-3.5-turbo-instruct", "openai", "/v1/completions", func(t *testing.T, r *llmtest.FIMRequest) {
			if r.Suffix != "\nprint(f())" || !strings.HasSuffix(r.Prompt, "def f(): ") {
				t.Errorf("prompt %q suffix %q", r.Prompt, r.Suffix)
			}
		}},
		{"deepseek", "", "openai", "/beta/completions", func(t *testing.T, r *llmtest.FIMRequest) {
			if r.Model != "deepseek-chat" || r.Suffix != "\nprint(f())" || r.Header.Get("Authorization") != "Bearer sk-test" {
				t.Errorf("model %q suffix %q auth %q", r.Model, r.Suffix, r.Header.Get("Authorization"))
			}
		}},
		{"codestral", "", "codestral", "/v1/fim/completions", func(t *testing.T, r *llmtest.FIMRequest) {
			if r.Model != "codestral-latest" || r.Suffix != "\nprint(f())" || r.Header.Get("Authorization") != "Bearer sk-test" {
				t.Errorf("model %q suffix %q auth %q", r.Model, r.Suffix, r.Header.Get("Authorization"))
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.provider+"/"+c.model, func(t *testing.T) {
			srv := llmtest.NewFIMServer(t)
			srv.Handle(func(*llmtest.FIMRequest) llmtest.FIMReply { return llmtest.FIMReply{Chunks: []string{"return ", "42"}} })
			base := srv.URL
			switch c.provider {
			case "openai", "codestral":
				base += "/v1"
			case "deepseek":
				base += "/beta"
			}
			e, root := newEngine(t, config.Completion{
				CompletionFile: config.CompletionFile{Provider: c.provider, Model: c.model, BaseURL: base},
				Key:            "sk-test",
			}, completion.Options{})
			res := ask(t, e, root, "def f(): ", "\nprint(f())")
			if res.Text != "return 42" {
				t.Fatalf("suggestion %q, want return 42", res.Text)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 || reqs[0].Wire != c.wire || reqs[0].Path != c.path {
				t.Fatalf("requests %d, first %s %s; want one %s %s", len(reqs), reqs[0].Wire, reqs[0].Path, c.wire, c.path)
			}
			c.check(t, reqs[0])
		})
	}
}

// Provider chat asks the chat model for the middle and keeps only the
// code of a fenced answer.
func TestChatFallback(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Text: []string{"```python\n", "return 42\n", "```"}})
	p := openai.New(openai.Options{BaseURL: srv.BaseURL(llmtest.OpenAI)})
	e, root := newEngine(t, config.Completion{CompletionFile: config.CompletionFile{Provider: "chat"}},
		completion.Options{Chat: p, ChatModel: "gpt-test"})
	if res := ask(t, e, root, "def f(): ", "\nprint(f())"); res.Text != "return 42" {
		t.Fatalf("suggestion %q, want return 42", res.Text)
	}
	r := srv.Requests()[0]
	if r.Model != "gpt-test" || !strings.Contains(r.System, "only the text to insert") ||
		!strings.Contains(r.LastUserText(), "def f(): <CURSOR>\nprint(f())") {
		t.Fatalf("chat request model %q system %q user %q", r.Model, r.System, r.LastUserText())
	}
}

// A provider's error answer is an error of Complete, with the key
// scrubbed; the engine stays usable.
func TestWireErrors(t *testing.T) {
	srv := llmtest.NewFIMServer(t)
	srv.Handle(func(r *llmtest.FIMRequest) llmtest.FIMReply {
		if r.N == 1 {
			return llmtest.FIMReply{Status: 401, Message: "bad key sk-secret-123"}
		}
		return llmtest.FIMReply{Chunks: []string{"ok"}}
	})
	e, root := newEngine(t, config.Completion{CompletionFile: config.CompletionFile{Provider: "llamacpp", BaseURL: srv.URL},
		Key: "sk-secret-123", KeyEnv: "TANDEM_COMPLETION_API_KEY"}, completion.Options{})
	_, err := e.Complete(context.Background(), completion.Request{Doc: filepath.Join(root, "a.py"), Root: root, Before: "x", Invoked: true})
	var le *llm.Error
	if err == nil || !errors.As(err, &le) || le.Status != 401 || strings.Contains(err.Error(), "sk-secret-123") || !strings.Contains(err.Error(), "TANDEM_COMPLETION_API_KEY") {
		t.Fatalf("error %v, want a scrubbed 401 naming the key variable", err)
	}
	if res := ask(t, e, root, "x", ""); res.Text != "ok" {
		t.Fatalf("after an error: %q, want ok", res.Text)
	}
}

// The configuration is checked when the engine is built.
func TestNewRefusesBadConfig(t *testing.T) {
	for _, c := range []config.CompletionFile{
		{Provider: "ollama"}, // no model
		{Provider: "ollama", Model: "x", Template: "nonesuch"}, // unknown template
		{Provider: "chat"}, // no chat provider
	} {
		if _, err := completion.New(completion.Options{Config: config.Completion{CompletionFile: c}}); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
	if _, err := completion.New(completion.Options{}); err != completion.ErrOff {
		t.Errorf("unconfigured: %v, want ErrOff", err)
	}
}
