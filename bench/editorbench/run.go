package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

type config struct {
	tandems                     []program
	wires                       []string
	chunks, steps, turns        int
	rounds, startups, latencies int
	profile                     string
	// scenarios are the ones run (all when empty): stream, toolstep,
	// latency, turns, startup.
	scenarios map[string]bool
}

// wants says whether the scenario is to run.
func (c config) wants(scenario string) bool { return len(c.scenarios) == 0 || c.scenarios[scenario] }

// program is a command measured as an ACP agent; floor ones are
// configured through FLOOR_* variables instead of tandem's.
type program struct {
	name  string
	argv  []string
	floor bool
}

// marker is the first chunk of the latency scenario's replies.
const marker = "FIRSTCHUNKMARK"

// fake is the model server: llmtest's, behind a handler that notes when
// the latency marker was written and how large each request was.
type fake struct {
	llm  *llmtest.Server
	http *httptest.Server

	mu       sync.Mutex
	wrote    time.Time     // when the marker last left
	lastBody int           // bytes of the last request
	served   time.Duration // the fake's own time on the requests so far
	// heapstat has the agents spawned report their live heap (the turns
	// scenario's memory).
	heapstat bool
	replay   replay // the turns scenario's answers (replay.go)
}

func newFake() *fake {
	f := &fake{llm: llmtest.Start()}
	f.http = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The fake's own time starts before it reads the body: reading
		// it (a copy out of the socket into a buffer of its length)
		// grows with the history like its decoding does, and tandem's
		// share of the transfer, its writev, is its CPU either way.
		t0 := time.Now()
		body, _ := llmtest.ReadBody(r)
		f.mu.Lock()
		f.lastBody = len(body)
		f.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(body))
		w, replayed := f.replay.serve(w, r)
		if !replayed {
			f.llm.ServeHTTP(&noting{ResponseWriter: w, f: f}, r)
		}
		f.mu.Lock()
		f.served += time.Since(t0)
		f.mu.Unlock()
	}))
	return f
}

func (f *fake) close() { f.http.Close(); f.llm.Close() }

func (f *fake) base(wire string) string {
	if wire == "openai" {
		return f.http.URL + "/v1"
	}
	return f.http.URL
}

func (f *fake) markerWritten() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.wrote
}

// servedFor is the fake's own time on the requests so far: reading and decoding
// them, which grows with the history it is sent, and writing its reply.
func (f *fake) servedFor() time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.served
}

func (f *fake) bodyBytes() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.lastBody
}

// noting is the fake's ResponseWriter: it notes when the marker goes out.
type noting struct {
	http.ResponseWriter
	f *fake
}

func (n *noting) Write(b []byte) (int, error) {
	k, err := n.ResponseWriter.Write(b)
	if bytes.Contains(b, []byte(marker)) {
		n.f.mu.Lock()
		n.f.wrote = time.Now()
		n.f.mu.Unlock()
	}
	return k, err
}

func (n *noting) Flush() {
	if fl, ok := n.ResponseWriter.(http.Flusher); ok {
		fl.Flush()
	}
}

// env is the environment p runs with against the fake on wire, in home.
func (f *fake) env(p program, wire, home, profile string) []string {
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home}
	if p.floor {
		return append(env, "FLOOR_WIRE="+wire, "FLOOR_URL="+f.base(wire))
	}
	// The tool loop may be run longer than a turn's default request cap
	// (-steps 300 for a profile with samples); the fake always finishes.
	env = append(env, "TANDEM_HOME="+home, "TANDEM_PROVIDER="+wire, "TANDEM_MAX_TURN_REQUESTS=100000")
	if f.heapstat {
		env = append(env, "TANDEM_HEAPSTAT=1")
	}
	if wire == "openai" {
		env = append(env, "OPENAI_API_KEY=bench-key", "OPENAI_BASE_URL="+f.base(wire), "TANDEM_MODEL=gpt-4.1")
	} else {
		env = append(env, "ANTHROPIC_API_KEY=bench-key", "ANTHROPIC_BASE_URL="+f.base(wire), "TANDEM_MODEL=claude-sonnet-4-5")
	}
	if profile != "" {
		env = append(env, "TANDEM_CPUPROFILE="+profile, "TANDEM_TRACE="+strings.TrimSuffix(profile, ".pprof")+".trace")
	}
	return env
}

// bench is one run's shared parts.
type bench struct {
	c     config
	f     *fake
	tmp   string
	floor program
	out   io.Writer
	log   io.Writer
}

// session spawns p on wire in a fresh home and workspace and opens a
// session in mode.
func (b *bench) session(p program, wire, mode, profile string) (*agentProc, string, error) {
	home, err := os.MkdirTemp(b.tmp, "home-")
	if err != nil {
		return nil, "", err
	}
	dir, err := os.MkdirTemp(b.tmp, "ws-")
	if err != nil {
		return nil, "", err
	}
	ap, err := spawn(p.argv, b.f.env(p, wire, home, profile), b.log)
	if err != nil {
		return nil, "", err
	}
	if err := ap.open(dir, mode); err != nil {
		ap.kill()
		return nil, "", fmt.Errorf("%s: %w", p.name, err)
	}
	return ap, dir, nil
}

// sample is one measured run: its wall time, CPU (rusage at exit) and
// notifications read.
type sample struct {
	wall, cpu time.Duration
	notes     int
}

// measure runs work in a fresh session of p and returns the run's sample;
// work returns the wall time of the part that counts.
func (b *bench) measure(p program, wire, mode, profile string, work func(ap *agentProc, dir string) (time.Duration, error)) (sample, error) {
	ap, dir, err := b.session(p, wire, mode, profile)
	if err != nil {
		return sample{}, err
	}
	var wall time.Duration
	if work != nil {
		if wall, err = work(ap, dir); err != nil {
			ap.kill()
			return sample{}, fmt.Errorf("%s: %w", p.name, err)
		}
	}
	cpu, err := ap.finish()
	if err != nil {
		return sample{}, fmt.Errorf("%s: %w", p.name, err)
	}
	return sample{wall: wall, cpu: cpu, notes: ap.notes}, nil
}

func median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// series collects a program's samples of one scenario, and of an idle
// session (opened, nothing asked) to subtract.
type series struct{ wall, cpu, idle []time.Duration }

func (s *series) add(run, idle sample) {
	s.wall = append(s.wall, run.wall)
	s.cpu = append(s.cpu, run.cpu)
	s.idle = append(s.idle, idle.cpu)
}

// work is the scenario's CPU: the run's less the idle session's.
func (s *series) work() time.Duration { return max(median(s.cpu)-median(s.idle), 0) }

func met(ok bool) string {
	if ok {
		return "met"
	}
	return "NOT MET"
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

func run(ctx context.Context, c config, out, log io.Writer) error {
	tmp, err := os.MkdirTemp("", "editorbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	floorBin, how, err := buildFloor(tmp)
	if err != nil {
		return err
	}
	f := newFake()
	defer f.close()
	b := &bench{c: c, f: f, tmp: tmp, floor: program{name: "floor", argv: []string{floorBin}, floor: true}, out: out, log: log}
	load, _ := os.ReadFile("/proc/loadavg")
	writeln(out, "machine: %d cores, load %s; %d rounds; floor built %s", runtime.NumCPU(), strings.Join(strings.Fields(string(load))[:3], " "), c.rounds, how)
	for _, wire := range c.wires {
		if c.wants("stream") {
			if err := b.stream(wire); err != nil {
				return err
			}
		}
		if c.wants("toolstep") {
			if err := b.toolLoop(wire); err != nil {
				return err
			}
		}
	}
	if c.wants("latency") {
		if err := b.latency(c.wires[0]); err != nil {
			return err
		}
	}
	if c.wants("turns") {
		if err := b.longSession(c.wires[0]); err != nil {
			return err
		}
	}
	if c.wants("startup") {
		return b.startup()
	}
	return nil
}

// programs is what a scenario measures: every tandem, then the floor.
func (b *bench) programs() []program { return append(slices.Clone(b.c.tandems), b.floor) }

// profileFor is where the first tandem writes its profile of scenario in
// the first round, or "".
func (b *bench) profileFor(p program, round int, scenario string) string {
	if b.c.profile == "" || round > 0 || p.name != b.c.tandems[0].name {
		return ""
	}
	return filepath.Join(b.c.profile, p.name+"-"+scenario+".pprof")
}

// rounds runs each program's scenario and idle session in turn, round by
// round, so a change of the machine's load falls on all alike.
func (b *bench) rounds(scenario, wire, mode string, work func(p program) func(*agentProc, string) (time.Duration, error)) (map[string]*series, map[string]int, error) {
	all := map[string]*series{}
	notes := map[string]int{}
	for r := range b.c.rounds {
		for _, p := range b.programs() {
			run, err := b.measure(p, wire, mode, b.profileFor(p, r, scenario+"-"+wire), work(p))
			if err != nil {
				return nil, nil, fmt.Errorf("%s %s: %w", scenario, wire, err)
			}
			idle, err := b.measure(p, wire, mode, "", nil)
			if err != nil {
				return nil, nil, fmt.Errorf("%s %s idle: %w", scenario, wire, err)
			}
			if all[p.name] == nil {
				all[p.name] = &series{}
			}
			all[p.name].add(run, idle)
			notes[p.name] = run.notes - idle.notes
		}
	}
	return all, notes, nil
}

// stream: one prompt answered by c.chunks text chunks.
func (b *bench) stream(wire string) error {
	text := make([]string, b.c.chunks)
	for i := range text {
		text[i] = "tok "
	}
	reply := llmtest.Reply{Text: text}
	b.f.llm.Handle(func(*llmtest.Request) llmtest.Reply { return reply })
	var fakeWall []time.Duration
	all, notes, err := b.rounds("stream", wire, "", func(program) func(*agentProc, string) (time.Duration, error) {
		return func(ap *agentProc, _ string) (time.Duration, error) {
			d, err := b.fakeAlone(wire)
			if err != nil {
				return 0, err
			}
			fakeWall = append(fakeWall, d)
			t0 := time.Now()
			err = ap.prompt("go")
			return time.Since(t0), err
		}
	})
	if err != nil {
		return err
	}
	fw := median(fakeWall)
	floor := all["floor"]
	floorPer := float64(floor.work()) / float64(b.c.chunks) / 1e3
	writeln(b.out, "stream %s, %d chunks: the fake alone %.1f ms; floor %.1f ms, %.2f µs CPU/chunk, %d notifications",
		wire, b.c.chunks, ms(fw), ms(median(floor.wall)), floorPer, notes["floor"])
	for _, t := range b.c.tandems {
		s := all[t.name]
		rate := float64(fw) / float64(median(s.wall))
		per := float64(s.work()) / float64(b.c.chunks) / 1e3
		writeln(b.out, "  %s: %.1f ms, %d notifications; rate %.2f× the fake's (goal ≥ 0.8×) %s; CPU %.2f µs/chunk (goal ≤ 10) %s, %.2f× the floor's (goal ≤ 2×) %s",
			t.name, ms(median(s.wall)), notes[t.name], rate, met(rate >= 0.8), per, met(per <= 10), per/floorPer, met(per <= 2*floorPer))
	}
	return nil
}

// fakeAlone is the fake's own time for the stream: a request read to its
// end without parsing.
func (b *bench) fakeAlone(wire string) (time.Duration, error) {
	url, body := b.f.base(wire)+"/messages", `{"model":"m","max_tokens":10,"stream":true,"messages":[{"role":"user","content":"go"}]}`
	if wire == "openai" {
		url, body = b.f.base(wire)+"/chat/completions", `{"model":"m","stream":true,"messages":[{"role":"user","content":"go"}]}`
	} else {
		url = b.f.base(wire) + "/v1/messages"
	}
	t0 := time.Now()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return 0, err
	}
	return time.Since(t0), nil
}

// toolStepFile is the file the tool loop reads and edits: some 60 lines.
var toolStepFile = strings.Repeat("func handler(w http.ResponseWriter, r *http.Request) {\n\tserve(w, r)\n}\n\n", 15)

// toolLoop: one turn of c.steps read_file / edit_file calls.
func (b *bench) toolLoop(wire string) error {
	steps := b.c.steps
	b.f.llm.Handle(func(r *llmtest.Request) llmtest.Reply {
		return llmtest.ReadEditStep(llmtest.ToolResults(r.Messages), steps)
	})
	// The fake's own time on each program's requests, shown beside the
	// goal (not taken from it): decoding a request grows with its size,
	// and tandem's carry a system prompt and tool schemas the floor's lack.
	served := map[string][]time.Duration{}
	all, _, err := b.rounds("toolstep", wire, "full-auto", func(p program) func(*agentProc, string) (time.Duration, error) {
		return func(ap *agentProc, dir string) (time.Duration, error) {
			path := filepath.Join(dir, "main.go")
			if err := os.WriteFile(path, []byte("m0 \n"+toolStepFile), 0o644); err != nil {
				return 0, err
			}
			t0, f0 := time.Now(), b.f.servedFor()
			if err := ap.prompt("go"); err != nil {
				return 0, err
			}
			d := time.Since(t0)
			served[p.name] = append(served[p.name], b.f.servedFor()-f0)
			got, _ := os.ReadFile(path)
			if want := fmt.Sprintf("m%d ", steps/2); !strings.HasPrefix(string(got), want) {
				return 0, fmt.Errorf("the edits did not land: the file starts %.12q, not %q", got, want)
			}
			return d, nil
		}
	})
	if err != nil {
		return err
	}
	floor := all["floor"]
	writeln(b.out, "toolstep %s, %d steps: floor %.1f ms wall, %.1f ms CPU a turn", wire, steps, ms(median(floor.wall)), ms(floor.work()))
	for _, t := range b.c.tandems {
		s := all[t.name]
		over := ms(median(s.wall)-median(floor.wall)) / float64(steps)
		overCPU := ms(s.work()-floor.work()) / float64(steps)
		writeln(b.out, "  %s: %.1f ms wall, %.1f ms CPU a turn; %.2f ms wall a step over the floor (goal < 0.5) %s; %.2f ms CPU a step over the floor (goal < 0.5) %s",
			t.name, ms(median(s.wall)), ms(s.work()), over, met(over < 0.5), overCPU, met(overCPU < 0.5))
	}
	line := fmt.Sprintf("  the fake's own time on the requests (in the wall times above), a step: floor %.2f ms", ms(median(served["floor"]))/float64(steps))
	for _, t := range b.c.tandems {
		line += fmt.Sprintf(", %s %.2f ms", t.name, ms(median(served[t.name]))/float64(steps))
	}
	writeln(b.out, "%s", line)
	return nil
}

// latency: the time from the fake writing a reply's first chunk to the
// editor reading it, median over c.latencies prompts in one session.
func (b *bench) latency(wire string) error {
	reply := llmtest.Reply{Text: []string{marker, " and", " more"}, Delay: llmtest.Duration(2 * time.Millisecond)}
	b.f.llm.Handle(func(*llmtest.Request) llmtest.Reply { return reply })
	res := map[string][]time.Duration{}
	for range b.c.rounds {
		for _, p := range b.programs() {
			if _, err := b.measure(p, wire, "", "", func(ap *agentProc, _ string) (time.Duration, error) {
				ap.marker = []byte(marker)
				for range b.c.latencies {
					ap.seen = time.Time{}
					if err := ap.prompt("go"); err != nil {
						return 0, err
					}
					if ap.seen.IsZero() {
						return 0, fmt.Errorf("the first chunk never arrived")
					}
					res[p.name] = append(res[p.name], ap.seen.Sub(b.f.markerWritten()))
				}
				return 0, nil
			}); err != nil {
				return fmt.Errorf("latency: %w", err)
			}
		}
	}
	floor := median(res["floor"])
	writeln(b.out, "first chunk after the model's (%s, median of %d): floor %.3f ms", wire, len(res["floor"]), ms(floor))
	for i, t := range b.c.tandems {
		l := median(res[t.name])
		line := fmt.Sprintf("  %s: %.3f ms, %.2f× the floor's; against the issue's 0.36 ms (goal: unchanged or better) %s", t.name, ms(l), float64(l)/float64(floor), met(ms(l) <= 0.36*1.1))
		if i == 0 && len(b.c.tandems) > 1 {
			prev := median(res[b.c.tandems[1].name])
			line += fmt.Sprintf("; against %s's %.3f ms %s", b.c.tandems[1].name, ms(prev), met(l <= prev+prev/10))
		}
		writeln(b.out, "%s", line)
	}
	return nil
}

// startup: spawn to the initialize answer, round-robin over the programs.
func (b *bench) startup() error {
	res := map[string][]time.Duration{}
	home := filepath.Join(b.tmp, "startup-home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return err
	}
	progs := b.programs()
	for i := range b.c.startups {
		// Each run starts in a rotated order: a start-up is short enough
		// that what the run before leaves to the kernel (a tandem's exit
		// frees far more than the floor's) shows in it, and in a fixed
		// order the first tandem always followed the floor, the floor a
		// tandem: between two builds of the same code, the one listed
		// first measured 1 ms faster.
		for k := range progs {
			p := progs[(i+k)%len(progs)]
			t0 := time.Now()
			ap, err := spawn(p.argv, b.f.env(p, b.c.wires[0], home, ""), b.log)
			if err != nil {
				return err
			}
			if _, err := ap.call("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{}}); err != nil {
				ap.kill()
				return fmt.Errorf("startup %s: %w", p.name, err)
			}
			res[p.name] = append(res[p.name], time.Since(t0))
			if _, err := ap.finish(); err != nil {
				return fmt.Errorf("startup %s: %w", p.name, err)
			}
		}
	}
	floor := median(res["floor"])
	writeln(b.out, "startup, spawn → initialize answer (median of %d): floor %.2f ms", b.c.startups, ms(floor))
	for _, t := range b.c.tandems {
		d := median(res[t.name])
		r := float64(d) / float64(floor)
		writeln(b.out, "  %s: %.2f ms, %.2f× the floor's (goal ≤ 2×) %s", t.name, ms(d), r, met(r <= 2))
	}
	return nil
}
