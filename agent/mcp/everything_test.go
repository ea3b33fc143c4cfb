package mcp

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tandemhq/tandem/internal/proc"
	"github.com/tandemhq/tandem/internal/testenv"
)

const everythingPkg = "@modelcontextprotocol/server-everything"

// everything returns a Server entry for server-everything over the given
// transport. For http and sse it starts the server as the test's own
// child on a free port; for stdio the Manager starts it.
func everything(t testing.TB, transport Type) Server {
	t.Helper()
	entry := filepath.Join(testenv.NodeModules(t, everythingPkg), everythingPkg, "dist", "index.js")
	node := testenv.Program(t, "node")
	switch transport {
	case TypeStdio:
		return Server{Name: "everything", Type: TypeStdio, Command: node, Args: []string{entry, "stdio"}}
	case TypeHTTP:
		port, _ := serveNode(t, node, entry, "streamableHttp")
		return Server{Name: "everything", Type: TypeHTTP, URL: fmt.Sprintf("http://127.0.0.1:%d/mcp", port)}
	case TypeSSE:
		port, _ := serveNode(t, node, entry, "sse")
		return Server{Name: "everything", Type: TypeSSE, URL: fmt.Sprintf("http://127.0.0.1:%d/sse", port)}
	}
	t.Fatalf("unknown transport %q", transport)
	return Server{}
}

// serveNode runs server-everything in an HTTP mode until the test ends (or
// stop is called) and returns its port once it accepts connections.
func serveNode(t testing.TB, node, entry, mode string) (port int, stop func()) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port = l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(node, entry, mode)
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	stderr := &testenv.SyncBuffer{}
	cmd.Stderr = stderr
	tree, err := proc.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	stop = func() {
		once.Do(func() {
			_ = tree.Kill()
			_ = cmd.Wait()
			_ = tree.Close()
		})
	}
	t.Cleanup(stop)
	// Both modes say "... on port N" once they listen.
	if !stderr.Await(15*time.Second, fmt.Sprintf("on port %d", port)) {
		t.Fatalf("server-everything %s did not listen on %d:\n%s", mode, port, stderr.String())
	}
	return port, stop
}

func TestEverything(t *testing.T) {
	for _, transport := range []Type{TypeStdio, TypeHTTP, TypeSSE} {
		t.Run(string(transport), func(t *testing.T) {
			srv := everything(t, transport)
			m, rec := start(t, Options{Servers: []Server{srv}})
			waitReady(t, m, 20*time.Second)
			rec.wait(t, "echo, get-sum and get-tiny-image", 5*time.Second, func(r *recorder) bool {
				return r.tools["mcp__everything__echo"] != nil && r.tools["mcp__everything__get-sum"] != nil &&
					r.tools["mcp__everything__get-tiny-image"] != nil
			})
			t.Logf("%s connect time: %s", transport, m.Status()[0].ConnectTime)

			sum := rec.tool(t, "mcp__everything__get-sum")
			if s := string(sum.Info().Schema); !strings.Contains(s, `"a"`) || !strings.Contains(s, `"b"`) {
				t.Errorf("get-sum schema lacks a and b: %s", s)
			}
			if res := run(t, rec.tool(t, "mcp__everything__echo"), `{"message":"hello tandem"}`); res.IsError || !strings.Contains(res.Output, "hello tandem") {
				t.Errorf("echo = %+v", res)
			}
			if res := run(t, sum, `{"a":2,"b":40}`); res.IsError || !strings.Contains(res.Output, "42") {
				t.Errorf("get-sum = %+v", res)
			}
			// Arguments the server's schema refuses come back as an error result.
			if res := run(t, sum, `{"a":"two"}`); !res.IsError {
				t.Errorf("get-sum with a bad argument = %+v, want an error result", res)
			}
			img := run(t, rec.tool(t, "mcp__everything__get-tiny-image"), `{}`)
			if len(img.Images) != 1 || img.Images[0].MediaType != "image/png" {
				t.Fatalf("get-tiny-image = %d images, output %q", len(img.Images), img.Output)
			}
			if png, err := base64.StdEncoding.DecodeString(img.Images[0].Data); err != nil || !strings.HasPrefix(string(png), "\x89PNG") {
				t.Errorf("image data is not a base64 PNG: %v", err)
			}
			links := run(t, rec.tool(t, "mcp__everything__get-resource-links"), `{"count":2}`)
			if strings.Count(links.Output, "resource link: ") != 2 {
				t.Errorf("resource links = %q", links.Output)
			}
			if _, notices := rec.snapshot(); len(notices) != 0 {
				t.Errorf("notices from a healthy server: %q", notices)
			}
		})
	}
}

// A remote server that goes away is reported once and loses its tools.
func TestHTTPServerGone(t *testing.T) {
	entry := filepath.Join(testenv.NodeModules(t, everythingPkg), everythingPkg, "dist", "index.js")
	for _, tc := range []struct {
		mode, path string
		typ        Type
	}{{"streamableHttp", "/mcp", TypeHTTP}, {"sse", "/sse", TypeSSE}} {
		t.Run(tc.mode, func(t *testing.T) {
			port, stop := serveNode(t, testenv.Program(t, "node"), entry, tc.mode)
			srv := Server{Name: "remote", Type: tc.typ, URL: fmt.Sprintf("http://127.0.0.1:%d%s", port, tc.path)}
			m, rec := start(t, Options{Servers: []Server{srv}, CallTimeout: 3 * time.Second})
			waitReady(t, m, 20*time.Second)
			// Past the tools/list_changed the server sends after seeing roots.
			rec.wait(t, "get-roots-list", 10*time.Second, func(r *recorder) bool { return r.tools["mcp__remote__get-roots-list"] != nil })
			echo := rec.tool(t, "mcp__remote__echo")
			stop()
			if res := run(t, echo, `{"message":"anyone?"}`); !res.IsError {
				t.Errorf("call to a dead server = %+v", res)
			}
			rec.wait(t, "tools removed and a notice", 20*time.Second, func(r *recorder) bool { return len(r.tools) == 0 && len(r.notices) > 0 })
			m.Close() // nothing reports after: a second notice would be in by then
			if _, notices := rec.snapshot(); len(notices) != 1 || !strings.Contains(notices[0], `"remote"`) {
				t.Errorf("notices = %q, want one", notices)
			}
		})
	}
}

// Two sessions each get their own server process, which sees only its own
// session's root; closing one leaves the other working.
func TestSessionsIsolated(t *testing.T) {
	srv := everything(t, TypeStdio)
	rootA, rootB := t.TempDir(), t.TempDir()
	a, recA := start(t, Options{Root: rootA, Servers: []Server{srv}})
	b, recB := start(t, Options{Root: rootB, Servers: []Server{srv}})
	for _, rec := range []*recorder{recA, recB} {
		// get-roots-list is registered once the server has seen the client's
		// roots capability, through a tools/list_changed notification.
		rec.wait(t, "get-roots-list", 20*time.Second, func(r *recorder) bool { return r.tools["mcp__everything__get-roots-list"] != nil })
	}
	for _, tc := range []struct {
		rec         *recorder
		mine, other string
	}{{recA, rootA, rootB}, {recB, rootB, rootA}} {
		// The tool asks the client for its roots when the server holds
		// none yet, and the client has them before it connects: the
		// first answer already names them.
		out := run(t, tc.rec.tool(t, "mcp__everything__get-roots-list"), `{}`).Output
		if !strings.Contains(out, tc.mine) {
			t.Errorf("a session's server does not see its root %s:\n%s", tc.mine, out)
		}
		if strings.Contains(out, tc.other) {
			t.Errorf("a session's server sees the other session's root:\n%s", out)
		}
	}
	a.Close()
	if res := run(t, recB.tool(t, "mcp__everything__echo"), `{"message":"still here"}`); !strings.Contains(res.Output, "still here") {
		t.Errorf("closing one session broke the other: %+v", res)
	}
	_ = b
}

// Cancelling a long-running call returns at once and leaves the server usable.
func TestEverythingCancelLongRunning(t *testing.T) {
	m, rec := start(t, Options{Servers: []Server{everything(t, TypeStdio)}})
	waitReady(t, m, 20*time.Second)
	rec.wait(t, "the long-running tool", 5*time.Second, func(r *recorder) bool {
		return r.tools["mcp__everything__trigger-long-running-operation"] != nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	var a approve
	began := time.Now()
	_, err := rec.tool(t, "mcp__everything__trigger-long-running-operation").Run(ctx, a.env(t.TempDir()), []byte(`{"duration":30,"steps":30}`))
	if !errors.Is(err, context.Canceled) || time.Since(began) > 3*time.Second {
		t.Fatalf("Run = %v after %s, want context.Canceled right after the cancel", err, time.Since(began))
	}
	if res := run(t, rec.tool(t, "mcp__everything__echo"), `{"message":"after"}`); !strings.Contains(res.Output, "after") {
		t.Errorf("server unusable after a cancel: %+v", res)
	}
}

// server-filesystem replaces the directories on its command line with the
// client's roots, so a session's filesystem server reaches its roots only
// (both of a two-root session).
func TestFilesystemConfinedToSessionRoot(t *testing.T) {
	const pkg = "@modelcontextprotocol/server-filesystem"
	entry := filepath.Join(testenv.NodeModules(t, pkg), pkg, "dist", "index.js")
	root, second, elsewhere := t.TempDir(), t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "inside.txt"), []byte("in"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(elsewhere, "outside.txt"), []byte("out"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := Server{Name: "fs", Command: testenv.Program(t, "node"), Args: []string{entry, elsewhere}}
	// The server takes the roots after it is ready, and says so on its
	// stderr, which the Manager logs.
	var logged testenv.SyncBuffer
	log := slog.New(slog.NewTextHandler(io.MultiWriter(testWriter{t}, &logged), &slog.HandlerOptions{Level: slog.LevelDebug}))
	m, rec := start(t, Options{Root: root, Roots: []string{second}, Servers: []Server{srv}, Log: log})
	waitReady(t, m, 20*time.Second)
	rec.wait(t, "list_directory", 5*time.Second, func(r *recorder) bool { return r.tools["mcp__fs__list_directory"] != nil })
	if !logged.Await(20*time.Second, "Updated allowed directories from MCP roots") {
		t.Fatalf("the server never took the session roots:\n%s", logged.String())
	}
	if out := run(t, rec.tool(t, "mcp__fs__list_allowed_directories"), `{}`).Output; !strings.Contains(out, root) || !strings.Contains(out, second) || strings.Contains(out, elsewhere) {
		t.Errorf("allowed directories = %s, want the two roots only", out)
	}
	list := rec.tool(t, "mcp__fs__list_directory")
	if res := run(t, list, fmt.Sprintf(`{"path":%q}`, root)); res.IsError || !strings.Contains(res.Output, "inside.txt") {
		t.Errorf("listing the root = %+v", res)
	}
	if res := run(t, list, fmt.Sprintf(`{"path":%q}`, second)); res.IsError {
		t.Errorf("listing the second root = %+v", res)
	}
	if res := run(t, list, fmt.Sprintf(`{"path":%q}`, elsewhere)); !res.IsError || strings.Contains(res.Output, "outside.txt") {
		t.Errorf("listing outside the root = %+v, want refused", res)
	}
	if p := list.Describe(root, []byte(`{"path":"sub"}`)); len(p.Locations) != 1 || p.Locations[0].Path != filepath.Join(root, "sub") {
		t.Errorf("Describe = %+v", p)
	}
}

// Twenty sessions opened and closed leave no process behind: against
// server-everything opened one after another (node starts are slow on a
// busy machine), and against the fake server all at once.
func TestProcessesAfterTwentySessions(t *testing.T) {
	t.Run("everything", func(t *testing.T) {
		srv := everything(t, TypeStdio)
		twentySessions(t, srv, "mcp__everything__echo", false)
	})
	t.Run("fake-concurrent", func(t *testing.T) {
		srv, _ := fake(t, "fake", "ok")
		twentySessions(t, srv, "mcp__fake__echo", true)
	})
}

func twentySessions(t *testing.T, srv Server, echo string, concurrent bool) {
	before := descendants(t)
	var managers []*Manager
	var recs []*recorder
	began := time.Now()
	for range 20 {
		m, rec := start(t, Options{Servers: []Server{srv}, ConnectTimeout: 2 * time.Minute})
		managers, recs = append(managers, m), append(recs, rec)
		if !concurrent {
			waitReady(t, m, 2*time.Minute)
		}
	}
	for i, m := range managers {
		waitReady(t, m, 2*time.Minute)
		recs[i].wait(t, "echo", 5*time.Second, func(r *recorder) bool { return r.tools[echo] != nil })
	}
	opening := time.Since(began)
	open := len(descendants(t))
	for _, rec := range recs {
		if res := run(t, rec.tool(t, echo), `{"message":"x"}`); res.IsError {
			t.Fatalf("echo = %+v", res)
		}
	}
	began = time.Now()
	for _, m := range managers {
		m.Close()
	}
	closing := time.Since(began)
	after := waitDescendants(t, before, 10*time.Second)
	t.Logf("processes: %d before, %d with 20 sessions open, %d new left after closing (opening took %s, closing %s)",
		len(before), open, after, opening, closing)
	if open < len(before)+20 {
		t.Errorf("only %d processes with 20 sessions open", open)
	}
	if after != 0 {
		t.Errorf("%d processes left after closing 20 sessions, want none", after)
	}
}
