package release

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// testPlatforms are the targets the tests release: all five.
var testPlatforms = []string{"linux-x86_64", "linux-aarch64", "windows-x86_64", "darwin-aarch64", "darwin-x86_64"}

const testVersion = "0.0.1"

var (
	distOnce sync.Once
	distDir  string
	distErr  error
	distLog  bytes.Buffer
)

// TestMain removes the release the tests shared.
func TestMain(m *testing.M) {
	code := m.Run()
	if distDir != "" {
		os.RemoveAll(filepath.Dir(distDir))
	}
	os.Exit(code)
}

// dist releases testPlatforms once per test binary, as `make release`
// does, into a temporary directory.
func dist(t *testing.T) string {
	t.Helper()
	testenv.Program(t, "npm")
	distOnce.Do(func() {
		root := testenv.RepoRoot(t)
		dir, err := os.MkdirTemp("", "tandem-release-test-")
		if err != nil {
			distErr = err
			return
		}
		distDir = filepath.Join(dir, "dist")
		ctx, cancel := context.WithTimeout(context.Background(), 25*time.Minute)
		defer cancel()
		distErr = Release(ctx, Options{Root: root, Out: distDir, Version: testVersion, Commit: "0123456789abcdef0123456789abcdef01234567",
			Epoch: time.Unix(1767225600, 0).UTC(), BaseURL: "https://example.invalid/releases/v" + testVersion,
			Platforms: testPlatforms, Log: &distLog})
	})
	if distErr != nil {
		t.Fatalf("release: %v\n%s", distErr, distLog.String())
	}
	return distDir
}

func target(t *testing.T, platform string) Target {
	t.Helper()
	ts, err := selectTargets([]string{platform})
	if err != nil {
		t.Fatal(err)
	}
	return ts[0]
}

// sums reads SHA256SUMS.
func sums(t *testing.T, dir string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		sum, name, ok := strings.Cut(l, "  ")
		if !ok {
			t.Fatalf("SHA256SUMS line %q", l)
		}
		out[name] = sum
	}
	return out
}

// agent.json is valid against the registry's schema, names an archive per
// platform whose checksum SHA256SUMS holds, and its icon passes the
// registry's icon rules.
func TestRegistryEntry(t *testing.T) {
	dir := dist(t)
	b, err := os.ReadFile(filepath.Join(dir, "acp-registry", "tandem", "agent.json"))
	if err != nil {
		t.Fatal(err)
	}
	schemaText, err := os.ReadFile(filepath.Join("testdata", "acp-registry", "agent.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var schema jsonschema.Schema
	if err := json.Unmarshal(schemaText, &schema); err != nil {
		t.Fatal(err)
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	var instance any
	if err := json.Unmarshal(b, &instance); err != nil {
		t.Fatal(err)
	}
	if err := resolved.Validate(instance); err != nil {
		t.Errorf("agent.json is not valid against the registry's schema: %v\n%s", err, b)
	}
	// The schema is enforced, not waved through: a platform it does not
	// know is refused.
	bad := map[string]any{"id": "tandem", "name": "x", "version": "1.0.0", "description": "x",
		"distribution": map[string]any{"binary": map[string]any{"plan9-mips": map[string]any{"archive": "https://x/y", "cmd": "./y"}}}}
	if resolved.Validate(bad) == nil {
		t.Error("the schema accepted an unknown platform")
	}

	var e RegistryEntry
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatal(err)
	}
	if e.Version != testVersion || e.Distribution.NPX == nil || e.Distribution.NPX.Package != NPMName+"@"+testVersion {
		t.Errorf("entry %+v", e)
	}
	got := sums(t, dir)
	if len(e.Distribution.Binary) != len(testPlatforms) {
		t.Errorf("%d binary targets, want %d", len(e.Distribution.Binary), len(testPlatforms))
	}
	for _, p := range testPlatforms {
		bt, ok := e.Distribution.Binary[p]
		tg := target(t, p)
		if !ok || bt.Cmd != "./"+tg.Exe() || len(bt.Args) != 1 || bt.Args[0] != "acp" {
			t.Errorf("%s: %+v", p, bt)
			continue
		}
		name := bt.Archive[strings.LastIndex(bt.Archive, "/")+1:]
		if name != tg.Archive(testVersion) || !strings.HasPrefix(bt.Archive, "https://example.invalid/releases/v"+testVersion+"/") {
			t.Errorf("%s: archive URL %s", p, bt.Archive)
		}
		sum, err := sha256File(filepath.Join(dir, name))
		if err != nil || got[name] != sum {
			t.Errorf("%s: SHA256SUMS has %q, the archive's is %q (%v)", name, got[name], sum, err)
		}
	}

	svg, err := os.ReadFile(filepath.Join(dir, "acp-registry", "tandem", "icon.svg"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(svg)
	if !regexp.MustCompile(`<svg[^>]*\swidth="16"[^>]*\sheight="16"`).MatchString(s) || !strings.Contains(s, `viewBox="0 0 16 16"`) {
		t.Errorf("icon is not 16×16: %s", s)
	}
	for _, m := range regexp.MustCompile(`(fill|stroke)="([^"]*)"`).FindAllStringSubmatch(s, -1) {
		if v := strings.ToLower(m[2]); v != "currentcolor" && v != "none" && v != "inherit" {
			t.Errorf("icon has %s=%q; the registry wants currentColor or none", m[1], m[2])
		}
	}
	if !strings.Contains(s, "currentColor") {
		t.Error("icon does not use currentColor")
	}
}

// Each archive holds the binary (executable) and the docs at its top
// level; a Linux binary is static (no program interpreter) and stripped;
// writing an archive twice gives the same bytes.
func TestArchives(t *testing.T) {
	dir := dist(t)
	for _, p := range testPlatforms {
		tg := target(t, p)
		files := archiveFiles(t, filepath.Join(dir, tg.Archive(testVersion)), tg)
		want := []string{tg.Exe(), "README.md"}
		if _, err := os.Stat(filepath.Join(testenv.RepoRoot(t), "LICENSE")); err == nil {
			want = append(want, "LICENSE")
		}
		for _, w := range want {
			if _, ok := files[w]; !ok {
				t.Errorf("%s lacks %s (has %v)", p, w, keys(files))
			}
		}
		if len(files) != len(want) {
			t.Errorf("%s holds %v, want %v", p, keys(files), want)
		}
		bin, err := os.ReadFile(filepath.Join(dir, "build", p, tg.Exe()))
		if err != nil || !bytes.Equal(bin, files[tg.Exe()]) {
			t.Errorf("%s: the archived binary is not the one built (%v)", p, err)
		}
		if tg.GOOS == "linux" {
			f, err := elf.NewFile(bytes.NewReader(bin))
			if err != nil {
				t.Fatal(err)
			}
			for _, prog := range f.Progs {
				if prog.Type == elf.PT_INTERP {
					t.Errorf("%s: dynamically linked (has a program interpreter)", p)
				}
			}
			if f.Section(".symtab") != nil {
				t.Errorf("%s: not stripped (has .symtab)", p)
			}
		}
		t.Logf("%s: binary %d bytes, archive %d bytes, %s", p, len(bin), fileSize(t, filepath.Join(dir, tg.Archive(testVersion))), linkage(t, bin, tg))
	}
	// Writing an archive twice, from files with other dates, gives the
	// same bytes (a small binary
	// stands in: under the race detector compressing the real ones again
	// takes minutes).
	small := filepath.Join(t.TempDir(), "tandem")
	if err := os.WriteFile(small, []byte("#!/bin/sh\necho tandem\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	docs, err := docFiles(testenv.RepoRoot(t), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"linux-x86_64", "windows-x86_64"} {
		tg := target(t, p)
		var got [2][]byte
		for i := range got {
			// Files dated otherwise: the archive takes no date from them.
			when := time.Unix(int64(1700000000+i*86400), 0)
			if err := os.Chtimes(small, when, when); err != nil {
				t.Fatal(err)
			}
			a := filepath.Join(t.TempDir(), tg.Archive(testVersion))
			if err := writeArchive(a, tg, small, docs, time.Unix(1767225600, 0)); err != nil {
				t.Fatal(err)
			}
			got[i] = mustRead(t, a)
		}
		if !bytes.Equal(got[0], got[1]) {
			t.Errorf("%s: the archive written twice differs", p)
		}
	}
}

// A second build of the same commit is byte for byte the first: -trimpath,
// an empty build id and the fixed date leave nothing of the machine or the
// time in it.
func TestReproducibleBinary(t *testing.T) {
	dir := dist(t)
	tg := target(t, "linux-x86_64")
	again := filepath.Join(t.TempDir(), tg.Exe())
	o := Options{Root: testenv.RepoRoot(t), Version: testVersion, Commit: "0123456789abcdef0123456789abcdef01234567", Epoch: time.Unix(1767225600, 0).UTC()}
	if err := Build(context.Background(), o, tg, again); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(mustRead(t, again), mustRead(t, filepath.Join(dir, "build", tg.Platform, tg.Exe()))) {
		t.Error("two builds of the same source differ")
	}
	out, err := exec.Command(again, "version").Output()
	if err != nil || !strings.HasPrefix(string(out), "tandem "+testVersion+"\ncommit  0123456789abcdef0123456789abcdef01234567\ndate    2026-01-01T00:00:00Z\n") {
		t.Errorf("tandem version: %q (%v)", out, err)
	}
}

// The npm launcher and this platform's package, installed from their
// `npm pack` tarballs into an empty prefix, start tandem through npx, and
// it answers initialize.
func TestNPX(t *testing.T) {
	dir := dist(t)
	npx := testenv.Program(t, "npx")
	npm := testenv.Program(t, "npm")
	prefix := t.TempDir()
	tg := target(t, "linux-x86_64")
	main := filepath.Join(dir, "npm", "tandemhq-tandem-"+testVersion+".tgz")
	plat := filepath.Join(dir, "npm", "tandemhq-tandem-"+tg.NPMOS+"-"+tg.NPMCPU+"-"+testVersion+".tgz")
	// The other platforms' packages are not published anywhere a test can
	// reach, so optional dependencies are left out and this platform's is
	// installed by its tarball, as npm would have picked it.
	install := exec.Command(npm, "install", "--prefix", prefix, "--omit=optional", "--no-audit", "--no-fund", "--offline", main, plat)
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("npm install: %v\n%s", err, out)
	}
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Text: []string{"hello from npx"}})
	cmd := exec.Command(npx, "--no", NPMName, "acp")
	cmd.Dir = prefix
	answers(t, cmd, srv, "hello from npx", nil)
}

// Each released binary answers initialize, session/new and a prompt
// against the fake model over stdio, run the way this Linux x86_64 machine
// can: natively, linux-aarch64 under qemu-user, windows-x86_64 under Wine.
// macOS binaries cannot run here; they are held to their Mach-O headers.
func TestBinariesAnswer(t *testing.T) {
	dir := dist(t)
	for _, p := range testPlatforms {
		t.Run(p, func(t *testing.T) {
			tg := target(t, p)
			bin := filepath.Join(dir, "build", p, tg.Exe())
			var cmd *exec.Cmd
			var local func(string) string
			switch p {
			case "linux-x86_64":
				cmd = exec.Command(bin, "acp")
			case "linux-aarch64":
				cmd = exec.Command(testenv.Program(t, "qemu-aarch64-static"), bin, "acp")
			case "windows-x86_64":
				wine, env := testenv.Wine(t)
				cmd = exec.Command(wine, bin, "acp")
				cmd.Env = env
				// Wine maps the host's / to drive Z:, and tandem on
				// Windows wants a drive-letter path as the cwd.
				local = func(p string) string { return `Z:` + strings.ReplaceAll(p, "/", `\`) }
			default:
				checkMachO(t, bin, tg)
				return
			}
			srv := llmtest.NewServer(t)
			srv.Enqueue(llmtest.Reply{Text: []string{"hello from " + p}})
			answers(t, cmd, srv, "hello from "+p, local)
		})
	}
}

// checkMachO holds a macOS binary to its format and architecture.
func checkMachO(t *testing.T, bin string, tg Target) {
	t.Helper()
	f, err := macho.Open(bin)
	if err != nil {
		t.Fatalf("%s: %v", bin, err)
	}
	defer f.Close()
	want := macho.CpuArm64
	if tg.GOARCH == "amd64" {
		want = macho.CpuAmd64
	}
	if f.Cpu != want || f.Type != macho.TypeExec {
		t.Errorf("%s: cpu %v type %v, want %v executable", bin, f.Cpu, f.Type, want)
	}
}

// answers runs cmd (tandem acp, however started) against the fake model
// srv and holds it to initialize, session/new and one prompt whose reply
// is want. local, when not nil, turns a host path into the one the
// binary sees (a drive-letter path under Wine).
func answers(t *testing.T, cmd *exec.Cmd, srv *llmtest.Server, want string, local func(string) string) {
	t.Helper()
	home, work := t.TempDir(), t.TempDir()
	// cmd.Env, when set, is the runner's (Wine's); the model's and
	// tandem's variables go after it and win.
	base := cmd.Env
	cmd.Env = testenv.ModelEnv(home, srv.URL)
	if base != nil {
		cmd.Env = append(base, cmd.Env[len(os.Environ()):]...)
	}
	stderr := &testenv.SyncBuffer{}
	in, out := testenv.Start(t, cmd, stderr)
	var mu sync.Mutex
	var text strings.Builder
	peer := testenv.NewPeer(t, out, in, testenv.Lines, func(method string, params json.RawMessage) (any, *testenv.RPCError) {
		if method == "session/update" {
			var u struct {
				Update struct {
					SessionUpdate string `json:"sessionUpdate"`
					Content       struct{ Text string }
				} `json:"update"`
			}
			if json.Unmarshal(params, &u) == nil && u.Update.SessionUpdate == "agent_message_chunk" {
				mu.Lock()
				text.WriteString(u.Update.Content.Text)
				mu.Unlock()
			}
		}
		return nil, &testenv.RPCError{Code: -32601, Message: "not served"}
	})
	defer func() {
		peer.Close()
		if err := testenv.WaitExit(cmd, 20*time.Second); err != nil && t.Failed() {
			t.Logf("exit: %v", err)
		}
		if t.Failed() {
			t.Logf("stderr:\n%s", stderr.String())
		}
	}()
	var init struct {
		ProtocolVersion int `json:"protocolVersion"`
		AgentInfo       struct{ Version string }
	}
	if err := peer.Call("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{}}, &init); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if init.ProtocolVersion != 1 || init.AgentInfo.Version != testVersion {
		t.Errorf("initialize: %+v, want protocol 1 and version %s", init, testVersion)
	}
	var sess struct{ SessionID string }
	if local != nil {
		work = local(work)
	}
	if err := peer.Call("session/new", map[string]any{"cwd": work, "mcpServers": []any{}}, &sess); err != nil || sess.SessionID == "" {
		t.Fatalf("session/new: %v %+v", err, sess)
	}
	var res struct{ StopReason string }
	if err := peer.Call("session/prompt", map[string]any{"sessionId": sess.SessionID,
		"prompt": []any{map[string]any{"type": "text", "text": "hi"}}}, &res); err != nil {
		t.Fatalf("session/prompt: %v", err)
	}
	mu.Lock()
	got := text.String()
	mu.Unlock()
	// Under qemu-user the kernel's Landlock is out of reach, so tandem's
	// notice that commands are not sandboxed may come first.
	if res.StopReason != "end_turn" || !strings.HasSuffix(got, want) {
		t.Errorf("prompt: stop %q, text %q; want end_turn and %q", res.StopReason, got, want)
	}
}

// archiveFiles reads every file of a .tar.gz or .zip, checking that the
// binary is executable.
func archiveFiles(t *testing.T, path string, tg Target) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	if strings.HasSuffix(path, ".zip") {
		zr, err := zip.OpenReader(path)
		if err != nil {
			t.Fatal(err)
		}
		defer zr.Close()
		for _, f := range zr.File {
			r, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			out[f.Name], _ = io.ReadAll(r)
			r.Close()
		}
		return out
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Name == tg.Exe() && h.Mode&0o111 == 0 {
			t.Errorf("%s: %s is not executable (%o)", path, h.Name, h.Mode)
		}
		out[h.Name], _ = io.ReadAll(tr)
	}
	return out
}

// linkage says what a binary needs from the system at run time: nothing
// (static ELF), the DLLs a PE imports, the libraries a Mach-O loads.
func linkage(t *testing.T, bin []byte, tg Target) string {
	t.Helper()
	var libs []string
	var err error
	switch tg.GOOS {
	case "linux":
		return "static"
	case "windows":
		// debug/pe's ImportedLibraries is not implemented (it returns
		// nothing); each imported symbol names its DLL after a colon.
		var f *pe.File
		var syms []string
		if f, err = pe.NewFile(bytes.NewReader(bin)); err == nil {
			syms, err = f.ImportedSymbols()
		}
		for _, s := range syms {
			if _, dll, ok := strings.Cut(s, ":"); ok && !slices.Contains(libs, strings.ToUpper(dll)) {
				libs = append(libs, strings.ToUpper(dll))
			}
		}
	case "darwin":
		var f *macho.File
		if f, err = macho.NewFile(bytes.NewReader(bin)); err == nil {
			libs, err = f.ImportedLibraries()
		}
	}
	if err != nil {
		t.Fatalf("%s: reading the binary's imports: %v", tg.Platform, err)
	}
	return "imports " + strings.Join(libs, ", ")
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func fileSize(t *testing.T, p string) int64 {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}
