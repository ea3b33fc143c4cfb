package atomicfile

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

// childEnv tells this test binary it runs as the other process of
// TestSparesAcrossProcesses: "home root".
const childEnv = "ATOMICFILE_SPARE_CHILD"

// TestSpareChild is the other process: it edits child.txt through Spares
// under the shared home, says "ready", and waits to be killed with its
// Spares open, as a process that crashes leaves it.
func TestSpareChild(t *testing.T) {
	arg := os.Getenv(childEnv)
	if arg == "" {
		return // only as the child
	}
	var home, root string
	fmt.Sscan(arg, &home, &root)
	sp := NewSpares(home)
	d, err := OpenDir(root)
	if err != nil {
		t.Fatal(err)
	}
	d.UseSpares(sp)
	for i := range 50 {
		if err := WriteIn(d, "child.txt", []byte(fmt.Sprint("child ", i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fmt.Println("ready")
	io.ReadAll(os.Stdin) // the parent holds it open until it kills us
}

// Two processes editing one root through one home each use a directory of
// their own; one killed with its Spares open leaves its directory behind,
// and the next Spares to start removes it — but never a live one's.
func TestSparesAcrossProcesses(t *testing.T) {
	home, root := t.TempDir(), t.TempDir()
	for _, f := range []string{"child.txt", "parent.txt"} {
		os.WriteFile(filepath.Join(root, f), []byte("old"), 0o644)
	}
	child := exec.Command(os.Args[0], "-test.run", "^TestSpareChild$")
	child.Env = append(os.Environ(), childEnv+"="+home+" "+root)
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	child.Stderr = os.Stderr
	in, err := child.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	defer func() {
		if !killed {
			child.Process.Kill()
			child.Wait()
		}
	}()
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "ready\n" {
		t.Fatalf("child said %q, %v", line, err)
	}
	childDirs := subdirs(t, home)
	if len(childDirs) != 1 {
		t.Fatalf("home holds %v after the child's edits, want its one directory", childDirs)
	}

	// Two sessions of this process at once, beside the live child.
	var wg sync.WaitGroup
	for _, name := range []string{"parent.txt", "other.txt"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d, _, _, _ := spareDirIn(t, root, home)
			for i := range 50 {
				if err := WriteIn(d, name, []byte(fmt.Sprint(name, i)), 0o644); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	assertFile(t, filepath.Join(root, "parent.txt"), "parent.txt49", 0o644)
	assertFile(t, filepath.Join(root, "other.txt"), "other.txt49", 0o644)
	assertFile(t, filepath.Join(root, "child.txt"), "child 49", 0o644)
	if got := subdirs(t, home); !slices.Contains(got, childDirs[0]) || len(got) != 3 {
		t.Fatalf("with the child alive, home holds %v; want its %s and one per session", got, childDirs[0])
	}

	child.Process.Kill()
	child.Wait()
	killed = true
	d, _, _, sp := spareDirIn(t, root, home)
	if err := WriteIn(d, "parent.txt", []byte("after"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := subdirs(t, home); slices.Contains(got, childDirs[0]) {
		t.Errorf("the dead child's directory %s is still there: %v", childDirs[0], got)
	}
	sp.Close()
	if got := treeNames(t, root); fmt.Sprint(got) != "[child.txt other.txt parent.txt]" {
		t.Errorf("the root holds %v", got)
	}
}

// spareDirIn is spareDir over a given root and home.
func spareDirIn(t *testing.T, root, home string) (*Dir, string, string, *Spares) {
	t.Helper()
	sp := NewSpares(home)
	t.Cleanup(func() { sp.Close() })
	d, err := OpenDir(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	d.UseSpares(sp)
	return d, root, home, sp
}

func subdirs(t *testing.T, home string) []string {
	t.Helper()
	es, err := os.ReadDir(home)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}
