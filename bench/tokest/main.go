// Command tokest measures how far tandem's token estimate
// (agent/llm/models.Estimator) is from a real tokenizer on realistic
// requests: it runs a scripted session of this repository against the
// fake model server, keeps every request the agent sent, counts each with
// the o200k and cl100k BPE encodings (count.mjs, gpt-tokenizer), and
// prints the estimate's error uncalibrated (bytes/4) and calibrated by the
// previous request's true count, as the provider's report calibrates it.
//
// usage: go run ./bench/tokest (from the repository root; bench/tokest.sh
// installs the tokenizer and runs it)
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/llm/models"
	"github.com/tandemhq/tandem/agent/llm/openai"
	"github.com/tandemhq/tandem/agent/local"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "tokest:", err)
		os.Exit(1)
	}
}

func run() error {
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	reqs, err := record(root)
	if err != nil {
		return err
	}
	texts := make([]string, len(reqs))
	for i, r := range reqs {
		texts[i] = text(r)
	}
	counts, err := count(root, texts)
	if err != nil {
		return err
	}
	fmt.Printf("%d requests, %s to %s bytes\n", len(reqs), kb(len(texts[0])), kb(len(texts[len(texts)-1])))
	for enc, name := range []string{"o200k_base", "cl100k_base"} {
		truth := make([]int, len(reqs))
		for i, r := range reqs {
			_, fixed := models.Size(r)
			truth[i] = counts[i][enc] + fixed
		}
		naive, calibrated := score(reqs, truth)
		fmt.Printf("%-11s bytes/4: mean |error| %5.1f%%, worst %5.1f%%   calibrated by the previous request: mean %4.1f%%, worst %4.1f%%\n",
			name, naive.mean(), naive.worst, calibrated.mean(), calibrated.worst)
	}
	return nil
}

// errs accumulates absolute percentage errors.
type errs struct {
	sum, worst float64
	n          int
}

func (e *errs) add(est, truth int) {
	p := 100 * math.Abs(float64(est-truth)) / float64(truth)
	e.sum += p
	e.n++
	e.worst = max(e.worst, p)
}

func (e *errs) mean() float64 { return e.sum / float64(e.n) }

// score runs a fresh estimator over the requests in order: the naive error
// is before any calibration; the calibrated one is each request estimated
// after the previous one's true count was observed (the first is skipped).
func score(reqs []*llm.Request, truth []int) (naive, calibrated errs) {
	var fresh, est models.Estimator
	for i, r := range reqs {
		naive.add(fresh.Estimate(r), truth[i])
		if i > 0 {
			calibrated.add(est.Estimate(r), truth[i])
		}
		est.Observe(r, truth[i])
	}
	return naive, calibrated
}

// text is what the tokenizer counts: the pieces of a request the estimator
// measures, each as the model receives it.
func text(r *llm.Request) string {
	var b strings.Builder
	b.WriteString(r.System)
	for _, t := range r.Tools {
		b.WriteString(t.Name + t.Description)
		b.Write(t.InputSchema)
	}
	for _, m := range r.Messages {
		for _, p := range m.Content {
			b.WriteString(p.Text + p.ToolName + p.ToolCallID)
			b.Write(p.Input)
		}
	}
	return b.String()
}

func count(root string, texts []string) ([][2]int, error) {
	in, _ := json.Marshal(texts)
	cmd := exec.Command("node", filepath.Join(root, "bench", "tokest", "count.mjs"))
	cmd.Stdin = bytes.NewReader(in)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("counting tokens with node (set NODE_PATH to a node_modules holding gpt-tokenizer): %w", err)
	}
	var counts [][2]int
	if err := json.Unmarshal(out, &counts); err != nil || len(counts) != len(texts) {
		return nil, fmt.Errorf("count.mjs answered %d counts for %d texts: %v", len(counts), len(texts), err)
	}
	return counts, nil
}

func kb(n int) string { return fmt.Sprintf("%.1f KB", float64(n)/1024) }

// benchHost serves the session from disk and refuses what would change it.
type benchHost struct{ local.Host }

func (benchHost) Send(agent.Update) {}

func (benchHost) RequestPermission(context.Context, agent.PermissionRequest) (agent.Decision, error) {
	return agent.Decision{Kind: agent.RejectOnce}, nil
}

// record runs the scripted session and returns each request as sent.
func record(root string) ([]*llm.Request, error) {
	srv := llmtest.Start()
	defer srv.Close()
	srv.Enqueue(script()...)
	var reqs []*llm.Request
	cfg := agent.Config{
		Provider: openai.New(openai.Options{APIKey: "bench", BaseURL: srv.BaseURL(llmtest.OpenAI)}),
		Model:    "gpt-4.1",
		Home:     os.TempDir(),
	}
	cfg.Pipeline.BeforeRequest = append(cfg.Pipeline.BeforeRequest, func(ctx context.Context, e agent.RequestEvent) error {
		c := *e.Request
		c.Messages = append([]llm.Message(nil), e.Request.Messages...)
		reqs = append(reqs, &c)
		return nil
	})
	a := agent.New(cfg)
	defer a.Close(context.Background())
	s, err := a.NewSession(context.Background(), agent.SessionOptions{Cwd: root, Mode: agent.ModeCode, Host: benchHost{}})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	for _, p := range prompts {
		if _, err := s.Prompt(context.Background(), []agent.ContentBlock{{Type: "text", Text: p}}); err != nil {
			return nil, err
		}
	}
	return reqs, nil
}
