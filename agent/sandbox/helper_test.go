//go:build linux

package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestMain(m *testing.M) {
	Main()
	os.Exit(m.Run())
}

// helperRun runs this test binary as the helper with args, as the runner
// does but without the runner's process group and status pipe.
func helperRun(t *testing.T, args ...string) (string, int) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(exe, append([]string{HelperArg}, args...)...).CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), 0
}

func TestHelperRefusesMalformedArguments(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"on"},
		{"on", "allow", "1"},
		{"on", "allow", "x", "0", "0", "true"},
		{"on", "allow", "-1", "0", "0", "true"},
		{"on", "allow", "0", "0", "0"},
		{"on", "allow", "0", "0", "9", "true"},
	} {
		out, code := helperRun(t, args...)
		if code != 126 || !strings.Contains(out, "tandem sandbox: malformed arguments") {
			t.Errorf("%q: exit %d %q", args, code, out)
		}
	}
}

func TestHelperRunsAndConfines(t *testing.T) {
	if out, code := helperRun(t, "off", "allow", "0", "0", "0", "sh", "-c", "echo ran; exit 3"); code != 3 || out != "ran\n" {
		t.Fatalf("off: exit %d %q", code, out)
	}
	if LandlockABI() < 1 {
		t.Fatal("no Landlock on this kernel")
	}
	rw, ro := t.TempDir(), t.TempDir()
	script := "echo ok > " + filepath.Join(rw, "f") + " && echo no > " + filepath.Join(ro, "f")
	out, code := helperRun(t, helperArgs(Policy{Writable: []string{rw}}, "sh", "-c", script)...)
	if code == 0 || !strings.Contains(out, "denied") {
		t.Fatalf("write outside the grant: exit %d %q", code, out)
	}
	if b, _ := os.ReadFile(filepath.Join(rw, "f")); string(b) != "ok\n" {
		t.Errorf("granted write = %q", b)
	}
	if _, err := os.Stat(filepath.Join(ro, "f")); err == nil {
		t.Error("the refused write landed")
	}
}

// Where the kernel refuses new user namespaces (here: a namespace whose
// limit is 0), the helper runs the command itself, under Landlock only, instead of
// failing it; with namespaces, the command is the second process of its
// own PID namespace.
func TestHelperFallsBackWithoutNamespaces(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	args := append([]string{exe, HelperArg}, helperArgs(Policy{}, "sh", "-c", `echo "pid $$"`)...)
	if out, code := helperRun(t, helperArgs(Policy{}, "sh", "-c", `echo "pid $$"`)...); code != 0 || out != "pid 2\n" {
		t.Fatalf("with namespaces: exit %d %q", code, out)
	}
	script := `echo 0 > /proc/sys/user/max_user_namespaces && exec "$@"`
	out, err := exec.Command("unshare", append([]string{"--user", "--map-root-user", "sh", "-c", script, "sh"}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if s := string(out); !strings.HasPrefix(s, "pid ") || s == "pid 2\n" {
		t.Fatalf("without namespaces: %q, want the command run as a plain process", s)
	}

	// Landlock needs no namespace: the plain command's writes stay
	// confined to what the policy grants.
	rw, ro := t.TempDir(), t.TempDir()
	write := "echo ok > " + filepath.Join(rw, "f") + " && echo no > " + filepath.Join(ro, "f")
	args = append([]string{exe, HelperArg}, helperArgs(Policy{Writable: []string{rw}}, "sh", "-c", write)...)
	out, err = exec.Command("unshare", append([]string{"--user", "--map-root-user", "sh", "-c", script, "sh"}, args...)...).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "denied") {
		t.Fatalf("without namespaces, a write outside the grant: %v %q", err, out)
	}
	if b, _ := os.ReadFile(filepath.Join(rw, "f")); string(b) != "ok\n" {
		t.Errorf("granted write = %q", b)
	}
	if _, err := os.Stat(filepath.Join(ro, "f")); err == nil {
		t.Error("the refused write landed")
	}
}
