package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

type config struct {
	tandem      string // the binary
	lines       int    // of the big file
	completions int    // of the latency scenario
	keystrokes  int    // of the typing scenario
	rate        int    // keystrokes a second
	files       int    // open files of the memory scenario
}

// bench is one run: the fake FIM server, the workspace and tandem.
type bench struct {
	c    config
	out  io.Writer
	fim  *llmtest.FIMServer
	root string
	srv  *server
}

func run(ctx context.Context, c config, out, log io.Writer) error {
	tmp, err := os.MkdirTemp("", "completionbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	root, home := filepath.Join(tmp, "work"), filepath.Join(tmp, "home")
	for _, d := range []string{root, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	if root, err = filepath.EvalSymlinks(root); err != nil {
		return err
	}
	b := &bench{c: c, out: out, fim: llmtest.StartFIM(), root: root}
	defer b.fim.Close()
	if err := b.workspace(); err != nil {
		return err
	}
	env := append(os.Environ(), "TANDEM_HOME="+home, "TANDEM_COMPLETION_PROVIDER=ollama",
		"TANDEM_COMPLETION_MODEL=qwen2.5-coder:1.5b-base", "TANDEM_COMPLETION_BASE_URL="+b.fim.URL)
	if b.srv, err = startServer(c.tandem, env, log); err != nil {
		return err
	}
	defer b.srv.stop()
	if _, err := b.srv.call("initialize", map[string]any{
		"processId": nil, "rootUri": fileURI(root), "capabilities": map[string]any{"general": map[string]any{"positionEncodings": []string{"utf-8"}}},
		"workspaceFolders": []map[string]string{{"uri": fileURI(root), "name": "work"}},
	}); err != nil {
		return err
	}
	b.srv.notify("initialized", map[string]any{})
	// A warm index: workspace/symbol waits for it to be built.
	if _, err := b.srv.call("workspace/symbol", map[string]any{"query": "helper"}); err != nil {
		return err
	}
	for _, step := range []func() error{b.latency, b.typing, b.memory} {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// workspace writes the big file and the small ones.
func (b *bench) workspace() error {
	var s strings.Builder
	s.WriteString("package main\n\nimport \"fmt\"\n\n")
	for i := 0; s.Len() == 0 || strings.Count(s.String(), "\n") < b.c.lines-8; i++ {
		fmt.Fprintf(&s, "// step%d adds %d to n.\nfunc step%d(n int) int {\n\tm := helper%d(n) + %d\n\treturn m\n}\n\n", i, i, i, i%50, i)
	}
	s.WriteString("func main() {\n\ttotal := 0\n\t\n}\n")
	if err := os.WriteFile(filepath.Join(b.root, "big.go"), []byte(s.String()), 0o644); err != nil {
		return err
	}
	for i := range max(b.c.files, 50) {
		if err := os.WriteFile(filepath.Join(b.root, fmt.Sprintf("f%02d.go", i)), []byte(smallFile(i)), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func smallFile(i int) string {
	var s strings.Builder
	fmt.Fprintf(&s, "package main\n\n// helper%d doubles n.\nfunc helper%d(n int) int {\n", i, i)
	for j := range 100 {
		fmt.Fprintf(&s, "\tn += %d // step %d\n", j, j)
	}
	s.WriteString("\treturn n\n}\n")
	return s.String()
}

// latency: invoked completions all over the big file; tandem's time from
// the request written to the model request arriving, and from the
// model's last token to the answer read, against the bench's own
// overhead of sending a request straight to the fake.
func (b *bench) latency() error {
	path := filepath.Join(b.root, "big.go")
	text, _ := os.ReadFile(path)
	lines := strings.Split(string(text), "\n")
	if err := b.srv.open(path, string(text)); err != nil {
		return err
	}
	b.fim.Handle(func(*llmtest.FIMRequest) llmtest.FIMReply {
		return llmtest.FIMReply{Chunks: []string{"fmt", ".Println", "(total", ")"}}
	})
	var in, out []time.Duration
	drain(b.fim)
	for i := range b.c.completions + 1 {
		line := 5 + (i*7919)%(len(lines)-10)
		ch, sent, err := b.srv.complete(path, line, len(lines[line]), 1)
		if err != nil {
			return err
		}
		a, err := b.srv.await("inlineCompletion", ch)
		if err != nil {
			return err
		}
		r := <-b.fim.Arrived()
		if i == 0 {
			continue // the first request opens the connection to the model
		}
		if suggestion(a) != "fmt.Println(total)" {
			return fmt.Errorf("latency: suggestion %q", suggestion(a))
		}
		in = append(in, r.Arrived.Sub(sent))
		out = append(out, a.At.Sub(b.fim.LastTokenAt(r)))
	}
	floor := b.floor()
	writeln(b.out, "latency, %d completions on a %d-line file: request in → model request out p50 %.2f ms p99 %.2f ms (goal p50 ≤ 2 ms %s, p99 ≤ 10 ms %s); last token → answer out p50 %.2f ms p99 %.2f ms (goal p50 ≤ 2 ms %s, p99 ≤ 10 ms %s); the fake alone p50 %.2f ms",
		len(in), len(lines), ms(pct(in, 50)), ms(pct(in, 99)), met(pct(in, 50) <= 2*time.Millisecond), met(pct(in, 99) <= 10*time.Millisecond),
		ms(pct(out, 50)), ms(pct(out, 99)), met(pct(out, 50) <= 2*time.Millisecond), met(pct(out, 99) <= 10*time.Millisecond), ms(floor))
	return nil
}

// floor is the median time of a request sent straight to the fake,
// from the bench: what the measurement itself costs.
func (b *bench) floor() time.Duration {
	var d []time.Duration
	body := `{"model":"m","prompt":"x","stream":true}`
	for range 20 {
		start := time.Now()
		resp, err := postJSON(b.fim.URL+"/api/generate", body)
		if err != nil {
			return 0
		}
		r := <-b.fim.Arrived()
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		d = append(d, r.Arrived.Sub(start))
	}
	return pct(d, 50)
}

// typing: keystrokes at c.rate a second with an automatic request each,
// answers not awaited before the next key; first along the suggestion the
// model made (no model request may follow), then text it did not
// suggest. The model takes longer than a keystroke.
func (b *bench) typing() error {
	path := filepath.Join(b.root, "big.go")
	text, _ := os.ReadFile(path)
	lines := strings.Split(string(text), "\n")
	line := len(lines) - 3 // the blank line in main
	const suggested = "fmt.Println(total)"
	b.fim.Handle(func(r *llmtest.FIMRequest) llmtest.FIMReply {
		return llmtest.FIMReply{Chunks: []string{"fmt", ".Println", "(total", ")"}, Delay: 30 * time.Millisecond}
	})
	drain(b.fim)
	before := len(b.fim.Requests())
	ch, _, err := b.srv.complete(path, line, 1, 2)
	if err != nil {
		return err
	}
	if a, err := b.srv.await("inlineCompletion", ch); err != nil || suggestion(a) != suggested {
		return fmt.Errorf("typing: first suggestion %q, %v", suggestion(a), err)
	}
	first := len(b.fim.Requests())
	interval := time.Second / time.Duration(b.c.rate)
	version, char := 2, 1
	var pending []chan answer
	key := func(s string) error {
		if err := b.srv.insert(path, version, line, char, s); err != nil {
			return err
		}
		version++
		char += len(s)
		ch, _, err := b.srv.complete(path, line, char, 2)
		pending = append(pending, ch)
		time.Sleep(interval) // the typist's pace, not a wait for tandem
		return err
	}
	along := min(b.c.keystrokes/2, len(suggested)-1)
	for _, r := range suggested[:along] {
		if err := key(string(r)); err != nil {
			return err
		}
	}
	alongRequests := len(b.fim.Requests()) - first
	for i := range b.c.keystrokes - along {
		if err := key(string(rune('a' + i%26))); err != nil {
			return err
		}
	}
	empty := 0
	for _, ch := range pending {
		a, err := b.srv.await("inlineCompletion", ch)
		if err != nil {
			return err
		}
		if suggestion(a) == "" {
			empty++
		}
	}
	total := len(b.fim.Requests()) - before
	maxIn := b.fim.MaxInFlight()
	writeln(b.out, "typing, %d keystrokes at %d/s: %d model requests (%d answers empty: superseded or nothing to add); at most %d in flight (goal ≤ 1 %s); %d for %d keystrokes extending the cached suggestion (goal 0 %s)",
		b.c.keystrokes, b.c.rate, total, empty, maxIn, met(maxIn <= 1), alongRequests, along, met(alongRequests == 0))
	return nil
}

// memory: c.files files open, then one completion in each; what tandem's
// resident memory grew by for the completions.
func (b *bench) memory() error {
	b.fim.Handle(func(*llmtest.FIMRequest) llmtest.FIMReply {
		return llmtest.FIMReply{Chunks: []string{"\treturn helper(n)\n", "}\n"}}
	})
	var paths []string
	for i := range b.c.files {
		p := filepath.Join(b.root, fmt.Sprintf("f%02d.go", i))
		if err := b.srv.open(p, smallFile(i)); err != nil {
			return err
		}
		paths = append(paths, p)
	}
	if _, err := b.srv.call("workspace/symbol", map[string]any{"query": "helper1"}); err != nil {
		return err // every didOpen before it is applied
	}
	base := b.srv.rss()
	for i, p := range paths {
		ch, _, err := b.srv.complete(p, 3+i%90, 0, 1)
		if err != nil {
			return err
		}
		if _, err := b.srv.await("inlineCompletion", ch); err != nil {
			return err
		}
	}
	grew := b.srv.rss() - base
	writeln(b.out, "memory, completions in %d open files: resident memory grew %.2f MB (goal ≤ 5 MB %s)",
		len(paths), float64(grew)/(1<<20), met(grew <= 5<<20))
	return nil
}

// drain empties the fake's arrival channel.
func drain(f *llmtest.FIMServer) {
	for {
		select {
		case <-f.Arrived():
		default:
			return
		}
	}
}

func pct(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)]
}

func met(ok bool) string {
	if ok {
		return "met"
	}
	return "NOT MET"
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

func writeln(w io.Writer, format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
