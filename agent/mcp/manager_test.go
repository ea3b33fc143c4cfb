package mcp

import (
	"context"
	"errors"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/tools"
	"github.com/tandemhq/tandem/internal/testenv"
)

func TestFakeToolsAnnouncedAndCalled(t *testing.T) {
	srv, fakelog := fake(t, "fake", "ok")
	m, rec := start(t, Options{Servers: []Server{srv}})
	waitTools(t, m, rec, 9)

	names, _ := rec.snapshot()
	valid := regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
	for _, n := range names {
		if !strings.HasPrefix(n, "mcp__fake__") || !valid.MatchString(n) {
			t.Errorf("tool name %q is not mcp__fake__<tool> in the providers' charset", n)
		}
	}
	if !slices.Contains(names, "mcp__fake__bad_name") {
		t.Errorf("bad.name was not sanitized to mcp__fake__bad_name: %v", names)
	}

	echo := rec.tool(t, "mcp__fake__echo")
	info := echo.Info()
	if info.Group != tools.GroupMCP || info.Kind != tools.KindOther || info.Description != "fake echo" ||
		!strings.Contains(string(info.Schema), `"text"`) {
		t.Errorf("info = %+v", info)
	}
	res := run(t, echo, `{"text":"hi there"}`)
	if res.IsError || res.Output != `echo {"text":"hi there"}` {
		t.Errorf("echo result = %+v", res)
	}
	// Same tool, no arguments at all: the server still gets an object.
	if res := run(t, echo, ``); res.Output != `echo {}` {
		t.Errorf("echo without arguments = %q", res.Output)
	}
	if res, err := echo.Run(context.Background(), &tools.Env{}, []byte(`[1,2]`)); err != nil || !res.IsError {
		t.Errorf("an array of arguments was accepted: %+v", res)
	}

	if res := run(t, rec.tool(t, "mcp__fake__fail"), `{}`); !res.IsError || !strings.Contains(res.Output, "failed on purpose") {
		t.Errorf("isError result = %+v", res)
	}
	img := run(t, rec.tool(t, "mcp__fake__image"), `{}`)
	if img.Output != "a pixel" || len(img.Images) != 1 || img.Images[0].MediaType != "image/png" || img.Images[0].Data != "iVBORw0KGgo=" {
		t.Errorf("image result = %+v", img)
	}
	if got := strings.Count(fakelog.String(), "call "); got != 4 {
		t.Errorf("server saw %d calls, want 4 (the bad-arguments call never leaves):\n%s", got, fakelog.String())
	}
}

func TestRejectedCallNeverReachesServer(t *testing.T) {
	srv, fakelog := fake(t, "fake", "ok")
	m, rec := start(t, Options{Servers: []Server{srv}})
	waitTools(t, m, rec, 9)
	env := &tools.Env{Ask: func(context.Context, tools.Ask) error { return tools.ErrRejected }}
	res, err := rec.tool(t, "mcp__fake__echo").Run(context.Background(), env, []byte(`{}`))
	if err != nil || !res.IsError || !strings.Contains(res.Output, "rejected") {
		t.Fatalf("Run = %+v, %v", res, err)
	}
	if strings.Contains(fakelog.String(), "call") {
		t.Errorf("a rejected call reached the server:\n%s", fakelog.String())
	}
}

// A broken server is reported once, loses its tools, and leaves the rest
// of the session (here: a second, healthy server) working.
func TestBrokenServerReportedOnceAndRemoved(t *testing.T) {
	for _, tc := range []struct{ tool, want string }{
		{"crash", "stopped"},
		{"garbage", "stopped"},
		{"hang", "stopped responding"},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			bad, _ := fake(t, "bad", "ok")
			good, _ := fake(t, "good", "ok")
			m, rec := start(t, Options{Servers: []Server{bad, good}, CallTimeout: time.Second, Restarts: -1})
			waitTools(t, m, rec, 18)
			victim := rec.tool(t, "mcp__bad__"+tc.tool)
			res := run(t, victim, `{}`)
			if !res.IsError {
				t.Errorf("call result = %+v, want an error result", res)
			}
			rec.wait(t, "the bad server's tools removed", 10*time.Second, func(r *recorder) bool {
				for n := range r.tools {
					if strings.HasPrefix(n, "mcp__bad__") {
						return false
					}
				}
				return len(r.notices) > 0
			})
			// Calls to a tool the session may still hold fail cleanly.
			if res := run(t, victim, `{}`); !res.IsError {
				t.Errorf("call after the fault = %+v", res)
			}
			if res := run(t, rec.tool(t, "mcp__good__echo"), `{"text":"x"}`); res.IsError {
				t.Errorf("the healthy server broke too: %+v", res)
			}
			st := m.Status()
			if st[0].State != "failed" || st[1].State != "ready" {
				t.Errorf("status = %+v", st)
			}
			names, _ := rec.snapshot()
			if len(names) != 9 {
				t.Errorf("tools left = %v, want the good server's 9", names)
			}
			// Once Close returns nothing can report again: a duplicate
			// report would be in by then.
			m.Close()
			if _, notices := rec.snapshot(); len(notices) != 1 || !strings.Contains(notices[0], `"bad"`) || !strings.Contains(notices[0], tc.want) {
				t.Errorf("notices = %q, want one about bad that says %q", notices, tc.want)
			}
		})
	}
}

// A server that crashes is started again, its tools come back and work;
// once its restarts are used up, it stays gone.
func TestCrashedServerRestarts(t *testing.T) {
	bad, _ := fake(t, "bad", "ok")
	m, rec := start(t, Options{Servers: []Server{bad}, CallTimeout: time.Second, Restarts: 2, RestartDelay: 10 * time.Millisecond})
	waitTools(t, m, rec, 9)
	for round := 1; round <= 3; round++ {
		if res := run(t, rec.tool(t, "mcp__bad__crash"), `{}`); !res.IsError {
			t.Fatalf("round %d: crash call = %+v", round, res)
		}
		if round == 3 {
			break
		}
		rec.wait(t, "the server back", 10*time.Second, func(r *recorder) bool {
			return len(r.tools) == 9 && len(r.notices) == 2*round
		})
		if res := run(t, rec.tool(t, "mcp__bad__echo"), `{"text":"hi"}`); res.IsError {
			t.Fatalf("round %d: echo after the restart = %+v", round, res)
		}
	}
	rec.wait(t, "the tools gone", 10*time.Second, func(r *recorder) bool { return len(r.tools) == 0 && len(r.notices) == 5 })
	_, notices := rec.snapshot()
	want := []string{"restarting it (1 of 2)", "restarted", "restarting it (2 of 2)", "restarted", "gone for this session"}
	for i, w := range want {
		if !strings.Contains(notices[i], w) || !strings.Contains(notices[i], `"bad"`) {
			t.Errorf("notice %d = %q, want it to say %q", i, notices[i], w)
		}
	}
	if st := m.Status(); len(st) != 1 || st[0].State != "failed" {
		t.Errorf("status = %+v", st)
	}
}

func TestServerThatCannotStart(t *testing.T) {
	exits, _ := fake(t, "exits", "exit-at-start")
	silent, _ := fake(t, "silent", "silent")
	missing := Server{Name: "missing", Command: "/nonexistent/mcp-server"}
	invalid := Server{Name: "invalid", Type: TypeHTTP, URL: "ftp://x"}
	m, rec := start(t, Options{Servers: []Server{exits, silent, missing, invalid}, ConnectTimeout: 2 * time.Second})
	waitReady(t, m, 15*time.Second)
	rec.wait(t, "four notices", 5*time.Second, func(r *recorder) bool { return len(r.notices) == 4 })
	names, notices := rec.snapshot()
	if len(names) != 0 {
		t.Errorf("tools = %v", names)
	}
	for _, want := range []string{
		`"exits" could not start.*boom: missing config file`,
		`"silent" could not start.*timed out`,
		`"missing" could not start.*nonexistent`,
		`"invalid" could not start.*url must be`,
	} {
		if !slices.ContainsFunc(notices, regexp.MustCompile(want).MatchString) {
			t.Errorf("no notice matches %q in %q", want, notices)
		}
	}
}

// A call that outlives the timeout is cancelled; a server that still
// answers pings is slow, not broken, and keeps its tools.
func TestSlowCallTimesOutServerStays(t *testing.T) {
	srv, fakelog := fake(t, "fake", "ok")
	m, rec := start(t, Options{Servers: []Server{srv}, CallTimeout: 500 * time.Millisecond})
	waitTools(t, m, rec, 9)
	res := run(t, rec.tool(t, "mcp__fake__slow"), `{}`)
	if !res.IsError || !strings.Contains(res.Output, "did not finish within 500ms") {
		t.Errorf("slow call = %+v", res)
	}
	if res := run(t, rec.tool(t, "mcp__fake__echo"), `{}`); res.IsError {
		t.Errorf("server unusable after a timeout: %+v", res)
	}
	fakelog.await(t, "cancelled") // the server saw notifications/cancelled
	if _, notices := rec.snapshot(); len(notices) != 0 {
		t.Errorf("a slow call was reported as a broken server: %q", notices)
	}
}

func TestCancelReachesInFlightCall(t *testing.T) {
	srv, fakelog := fake(t, "fake", "ok")
	m, rec := start(t, Options{Servers: []Server{srv}})
	waitTools(t, m, rec, 9)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	var a approve
	began := time.Now()
	_, err := rec.tool(t, "mcp__fake__slow").Run(ctx, a.env(t.TempDir()), []byte(`{}`))
	if !errors.Is(err, context.Canceled) || time.Since(began) > 2*time.Second {
		t.Fatalf("Run = %v after %s, want context.Canceled soon after the cancel", err, time.Since(began))
	}
	fakelog.await(t, "cancelled") // the server saw notifications/cancelled
}

func TestToolListChangeFollowed(t *testing.T) {
	srv, _ := fake(t, "fake", "ok")
	m, rec := start(t, Options{Servers: []Server{srv}})
	waitTools(t, m, rec, 9)
	run(t, rec.tool(t, "mcp__fake__changetools"), `{}`)
	rec.wait(t, "extra added and changetools removed", 5*time.Second, func(r *recorder) bool {
		_, gone := r.tools["mcp__fake__changetools"]
		_, added := r.tools["mcp__fake__extra"]
		return added && !gone
	})
	if res := run(t, rec.tool(t, "mcp__fake__extra"), `{}`); res.Output != "echo {}" {
		t.Errorf("new tool call = %+v", res)
	}
}

// Close kills the whole process group, including a grandchild that would
// otherwise outlive the server.
func TestCloseKillsProcessGroup(t *testing.T) {
	before := descendants(t)
	srv, fakelog := fake(t, "fake", "spawn")
	m, _ := start(t, Options{Servers: []Server{srv}})
	waitReady(t, m, 10*time.Second)
	fakelog.await(t, "child ")
	_, after, _ := strings.Cut(fakelog.String(), "child ")
	child, _ := strconv.Atoi(strings.TrimSpace(after))
	if child <= 0 {
		t.Fatalf("the grandchild's pid: %q", fakelog.String())
	}
	if n := len(descendants(t)); n < len(before)+2 {
		t.Fatalf("descendants = %d, want server and grandchild above %d", n, len(before))
	}
	began := time.Now()
	m.Close()
	t.Logf("Close took %s", time.Since(began))
	if n := waitDescendants(t, before, 5*time.Second); n != 0 {
		t.Errorf("%d new descendants after Close, want none", n)
	}
	// Once killed, the grandchild belongs to init until it is reaped.
	if !testenv.WaitExited(child, 5*time.Second) {
		t.Error("the grandchild outlived Close")
	}
}

func TestNoCallbackAfterClose(t *testing.T) {
	srv, _ := fake(t, "fake", "ok")
	rec := newRecorder()
	m := Start(context.Background(), Options{Root: t.TempDir(), Servers: []Server{srv}, OnTools: rec.onTools, OnNotice: rec.onNotice})
	m.Close() // before the server is even ready
	// A window for a late callback to show (what is under test is that
	// none comes, so there is no event to wait for instead).
	time.Sleep(500 * time.Millisecond)
	names, notices := rec.snapshot()
	if len(names) != 0 || len(notices) != 0 {
		t.Errorf("callbacks after Close: tools %v, notices %q", names, notices)
	}
	if err := m.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := os.Stat("/proc/self"); err == nil {
		if n := waitDescendants(t, nil, 5*time.Second); n != 0 {
			t.Errorf("%d processes left after closing while connecting", n)
		}
	}
}
