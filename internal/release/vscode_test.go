//go:build linux

package release

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tandemhq/tandem/internal/testenv"
)

// The linux-x64 .vsix, installed into code-server with no tandem.path set
// and no tandem on PATH, starts the binary it bundles when VS Code opens.
func TestVSIXStartsBundledBinary(t *testing.T) {
	dir := dist(t)
	tools := testenv.VSCodeE2E(t)
	vsix := filepath.Join(dir, "vscode", VSIX(testVersion, "linux-x64"))
	userData, exts, work, home := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	// PATH has node and the system's programs, and no tandem.
	env := []string{"HOME=" + home, "TANDEM_HOME=" + home, "PATH=" + filepath.Dir(tools.Node) + ":/usr/bin:/bin"}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	csArgs := []string{tools.CodeServer, "--user-data-dir", userData, "--extensions-dir", exts}
	install := exec.CommandContext(ctx, tools.Node, append(csArgs, "--install-extension", vsix)...)
	install.Env = env
	if out, err := install.CombinedOutput(); err != nil || !strings.Contains(string(out), "was successfully installed") {
		t.Fatalf("code-server --install-extension: %v\n%s", err, out)
	}
	bundled := filepath.Join(exts, "tandemhq.tandem-vscode-"+testVersion, "bin", "tandem")
	if _, err := os.Stat(bundled); err != nil {
		out, _ := exec.Command("find", exts, "-maxdepth", "3").CombinedOutput()
		t.Fatalf("the installed extension has no bundled binary: %v\n%s", err, out)
	}

	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	cs := exec.Command(tools.Node, append(csArgs, "--auth", "none", "--bind-addr", fmt.Sprintf("127.0.0.1:%d", port),
		"--disable-telemetry", "--disable-update-check", "--disable-workspace-trust", work)...)
	cs.Env = env
	var csLog testenv.SyncBuffer
	cs.Stdout, cs.Stderr = &csLog, &csLog
	// code-server's children (the extension host, tandem) share its
	// process group, which the cleanup ends as a whole.
	cs.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cs.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cs.Process.Pid, syscall.SIGTERM)
		if testenv.WaitExit(cs, 10*time.Second) != nil {
			_ = syscall.Kill(-cs.Process.Pid, syscall.SIGKILL)
		}
		if t.Failed() {
			t.Logf("code-server:\n%s", csLog.String())
		}
	})

	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url+"/healthz", nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("code-server did not answer at %s", url)
		case <-time.After(100 * time.Millisecond):
		}
	}
	open := exec.CommandContext(ctx, tools.Node, filepath.Join("testdata", "open.mjs"))
	open.Env = append(os.Environ(), "URL="+url, "PLAYWRIGHT="+tools.Playwright, "CHROMIUM="+tools.Chromium)
	var openErr testenv.SyncBuffer
	stdin, stdout := testenv.Start(t, open, &openErr)
	defer func() {
		stdin.Close()
		_ = testenv.WaitExit(open, 20*time.Second)
	}()
	opened := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if sc.Text() == "opened" {
				close(opened)
			}
		}
	}()
	select {
	case <-opened:
	case <-ctx.Done():
		t.Fatalf("the workbench did not open: %s", openErr.String())
	}
	for {
		for _, pid := range processesOf(bundled) {
			cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
			if strings.Contains(string(cmdline), "\x00lsp") {
				return // the extension started `<bundled> lsp`
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no process runs %s lsp; driver: %s", bundled, openErr.String())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// processesOf lists the processes whose executable is exe.
func processesOf(exe string) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		var pid int
		if _, err := fmt.Sscanf(e.Name(), "%d", &pid); err != nil {
			continue
		}
		if p, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe")); err == nil && p == exe {
			out = append(out, pid)
		}
	}
	return out
}
