//go:build unix

// Command acpprobe measures ACP agents the way an editor meets them: the
// time from spawning the process to the initialize reply, the resident
// memory (of the agent's whole process tree) after session/new and how much
// of it is anonymous, and what each further session adds. It prints one table with every agent's numbers
// and their ratio to the first agent's. bench/acp.sh drives it.
//
// usage: acpprobe [-runs N] [-sessions K] [-settle D] NAME=COMMAND...
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	runs := flag.Int("runs", 5, "spawn→initialize measurements per agent (the median is shown)")
	sessions := flag.Int("sessions", 10, "extra sessions opened to measure memory per session")
	settle := flag.Duration("settle", 500*time.Millisecond, "wait before reading memory, so start-up work can finish")
	timeout := flag.Duration("timeout", 60*time.Second, "limit for one agent's answers")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: acpprobe [flags] NAME=COMMAND... (the first agent is the baseline of the ratios)")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	var results []result
	for _, a := range flag.Args() {
		name, command, ok := strings.Cut(a, "=")
		if !ok {
			fmt.Fprintf(os.Stderr, "acpprobe: %q is not NAME=COMMAND\n", a)
			os.Exit(2)
		}
		fmt.Fprintf(os.Stderr, "acpprobe: measuring %s\n", name)
		results = append(results, measure(name, strings.Fields(command), *runs, *sessions, *settle, *timeout))
	}
	report(os.Stdout, results)
}

// result is one agent's numbers; a zero value means not measured (see note).
type result struct {
	name        string
	initMS      float64 // median spawn → initialize reply
	rssMB       float64 // process tree RSS after session/new
	anonMB      float64 // of which anonymous (the process's own, not file pages)
	perSession  float64 // MB each extra session added
	note        string
	initSamples []float64
}

func measure(name string, argv []string, runs, sessions int, settle, timeout time.Duration) result {
	r := result{name: name}
	for i := 0; i < runs; i++ {
		ms, err := timeInitialize(argv, timeout)
		if err != nil {
			r.note = "initialize: " + err.Error()
			return r
		}
		r.initSamples = append(r.initSamples, ms)
	}
	sort.Float64s(r.initSamples)
	r.initMS = r.initSamples[len(r.initSamples)/2]
	if err := memory(&r, argv, sessions, settle, timeout); err != nil {
		r.note = err.Error()
	}
	return r
}

// agentProc is a running agent with line-based JSON-RPC on its stdio.
type agentProc struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan []byte
	home  string
}

func start(argv []string) (*agentProc, error) {
	home, err := os.MkdirTemp("", "acpprobe-home-")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	// A fresh home and no model keys: every agent starts as on a new machine.
	cmd.Env = append(cleanEnv(), "HOME="+home, "TANDEM_HOME="+filepath.Join(home, ".tandem"))
	cmd.Stderr = io.Discard
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &agentProc{cmd: cmd, stdin: stdin, lines: make(chan []byte, 256), home: home}
	go func() {
		defer close(p.lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			p.lines <- append([]byte(nil), sc.Bytes()...)
		}
	}()
	return p, nil
}

func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasSuffix(k, "_API_KEY") || strings.HasPrefix(k, "TANDEM_") || k == "HOME" {
			continue
		}
		env = append(env, kv)
	}
	return env
}

// call sends a request and waits for its response, skipping notifications
// and answering requests from the agent with an error.
func (p *agentProc) call(id int, method string, params any, timeout time.Duration) (json.RawMessage, error) {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if _, err := p.stdin.Write(append(b, '\n')); err != nil {
		return nil, err
	}
	deadline := time.After(timeout)
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				return nil, errors.New("the agent closed its output")
			}
			var m struct {
				ID     *json.RawMessage `json:"id"`
				Method string           `json:"method"`
				Result json.RawMessage  `json:"result"`
				Error  *struct {
					Message string `json:"message"`
				} `json:"error"`
			}
			if json.Unmarshal(line, &m) != nil || m.ID == nil {
				continue
			}
			if m.Method != "" {
				reply, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32601, "message": "not supported by acpprobe"}})
				p.stdin.Write(append(reply, '\n'))
				continue
			}
			if string(*m.ID) != strconv.Itoa(id) {
				continue
			}
			if m.Error != nil {
				return nil, fmt.Errorf("%s: %s", method, m.Error.Message)
			}
			return m.Result, nil
		case <-deadline:
			return nil, fmt.Errorf("%s: no answer within %v", method, timeout)
		}
	}
}

func (p *agentProc) stop() {
	p.stdin.Close()
	done := make(chan struct{})
	go func() { p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL) // the whole group: node agents spawn helpers
		<-done
	}
	os.RemoveAll(p.home)
}

var initParams = map[string]any{
	"protocolVersion": 1,
	"clientCapabilities": map[string]any{
		"fs": map[string]any{"readTextFile": true, "writeTextFile": true}, "terminal": true,
	},
	"clientInfo": map[string]any{"name": "acpprobe", "version": "1"},
}

func timeInitialize(argv []string, timeout time.Duration) (float64, error) {
	t0 := time.Now()
	p, err := start(argv)
	if err != nil {
		return 0, err
	}
	defer p.stop()
	if _, err := p.call(1, "initialize", initParams, timeout); err != nil {
		return 0, err
	}
	return float64(time.Since(t0).Microseconds()) / 1000, nil
}

func memory(r *result, argv []string, sessions int, settle, timeout time.Duration) error {
	p, err := start(argv)
	if err != nil {
		return err
	}
	defer p.stop()
	initReply, err := p.call(1, "initialize", initParams, timeout)
	if err != nil {
		return err
	}
	cwd, err := os.MkdirTemp("", "acpprobe-ws-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(cwd)
	newSession := func(id int) error {
		_, err := p.call(id, "session/new", map[string]any{"cwd": cwd, "mcpServers": []any{}}, timeout)
		return err
	}
	err = newSession(2)
	if method := envAuthMethod(initReply, argv); err != nil && method != "" {
		// An agent that wants an explicit login (codex-acp) gets the one
		// its API key variable offers, as an editor would send.
		if _, aerr := p.call(100, "authenticate", map[string]any{"methodId": method}, timeout); aerr != nil {
			return fmt.Errorf("authenticate %s: %w", method, aerr)
		}
		err = newSession(2)
	}
	if err != nil {
		time.Sleep(settle)
		r.rssMB, r.anonMB = treeRSS(p.cmd.Process.Pid)
		return fmt.Errorf("RSS measured after a failed %v", err)
	}
	time.Sleep(settle)
	r.rssMB, r.anonMB = treeRSS(p.cmd.Process.Pid)
	for i := 0; i < sessions; i++ {
		if err := newSession(3 + i); err != nil {
			return fmt.Errorf("extra session %d: %w", i+1, err)
		}
	}
	time.Sleep(settle)
	rss, _ := treeRSS(p.cmd.Process.Pid)
	r.perSession = (rss - r.rssMB) / float64(sessions)
	return nil
}

// treeRSS is the resident memory of pid and all its descendants, in MB,
// and how much of it is anonymous. The rest is pages of files (mostly the
// program's own), shared with every other process mapping them and counted
// whole once the kernel maps them around a fault.
func treeRSS(pid int) (rss, anon float64) {
	children := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so cut at the last ')'.
		s := string(stat)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) > 1 {
			ppid, _ := strconv.Atoi(fields[1])
			children[ppid] = append(children[ppid], p)
		}
	}
	var kb, anonKB float64
	var walk func(int)
	walk = func(p int) {
		r, a := vmRSSKB(p)
		kb, anonKB = kb+r, anonKB+a
		for _, c := range children[p] {
			walk(c)
		}
	}
	walk(pid)
	return kb / 1024, anonKB / 1024
}

// vmRSSKB reads a process's VmRSS and RssAnon, in kB.
func vmRSSKB(pid int) (rss, anon float64) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0
	}
	kb := func(rest string) float64 {
		v, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
		return v
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			rss = kb(rest)
		} else if rest, ok := strings.CutPrefix(line, "RssAnon:"); ok {
			anon = kb(rest)
		}
	}
	return rss, anon
}

func report(w io.Writer, rs []result) {
	base := rs[0]
	ratio := func(v, b float64) string {
		if v == 0 || b == 0 {
			return "-"
		}
		return fmt.Sprintf("%.1fx", v/b)
	}
	num := func(v float64, unit string) string {
		if v == 0 {
			return "-"
		}
		return fmt.Sprintf("%.1f %s", v, unit)
	}
	fmt.Fprintf(w, "%-20s %12s %8s %14s %8s %10s %8s %16s %8s\n", "agent", "init (p50)", "ratio", "RSS after new", "ratio", "anon", "ratio", "+RSS/session", "ratio")
	for _, r := range rs {
		fmt.Fprintf(w, "%-20s %12s %8s %14s %8s %10s %8s %16s %8s\n", r.name,
			num(r.initMS, "ms"), ratio(r.initMS, base.initMS),
			num(r.rssMB, "MB"), ratio(r.rssMB, base.rssMB),
			num(r.anonMB, "MB"), ratio(r.anonMB, base.anonMB),
			num(r.perSession, "MB"), ratio(r.perSession, base.perSession))
	}
	for _, r := range rs {
		if len(r.initSamples) > 0 {
			fmt.Fprintf(w, "%s: initialize samples (ms) %v\n", r.name, r.initSamples)
		}
		if r.note != "" {
			fmt.Fprintf(w, "%s: note: %s\n", r.name, r.note)
		}
	}
}

// envAuthMethod returns the id of an "env_var" auth method the initialize
// reply offers whose variable the agent's command line sets, or "".
func envAuthMethod(init json.RawMessage, argv []string) string {
	var r struct {
		AuthMethods []struct {
			ID   string `json:"id"`
			Type string `json:"type"`
			Vars []struct {
				Name string `json:"name"`
			} `json:"vars"`
		} `json:"authMethods"`
	}
	if json.Unmarshal(init, &r) != nil {
		return ""
	}
	for _, m := range r.AuthMethods {
		for _, v := range m.Vars {
			for _, a := range argv {
				if m.Type == "env_var" && strings.HasPrefix(a, v.Name+"=") {
					return m.ID
				}
			}
		}
	}
	return ""
}
