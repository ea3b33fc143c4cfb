package settings

import (
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/tandemhq/tandem/agent/policy"
	"github.com/tandemhq/tandem/internal/testenv"
)

// TestConcurrentSavesKeepEveryRule runs four processes that each save 25
// rules, one at a time, to the same settings.local.json, all at once:
// every rule must be in the file afterwards (without the lock, a save that
// read the file before another's rename writes it back without that one's
// rule).
func TestConcurrentSavesKeepEveryRule(t *testing.T) {
	root := testenv.TempDir(t)
	const procs, each = 4, 25
	var wg sync.WaitGroup
	for p := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := testenv.Self("-test.run=^TestSaveManyHelper$")
			cmd.Env = append(os.Environ(), "SAVE_MANY_ROOT="+root, fmt.Sprintf("SAVE_MANY_PREFIX=p%d", p), fmt.Sprintf("SAVE_MANY_COUNT=%d", each))
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("saver %d: %v\n%s", p, err, out)
			}
		}()
	}
	wg.Wait()
	l, err := readLists(LocalFile(root))
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Allow) != procs*each {
		t.Errorf("%d rules saved, want %d: %q", len(l.Allow), procs*each, l.Allow)
	}
}

// TestSaveManyHelper is the saver TestConcurrentSavesKeepEveryRule starts;
// run by itself it has nothing to do.
func TestSaveManyHelper(t *testing.T) {
	root := os.Getenv("SAVE_MANY_ROOT")
	if root == "" {
		return
	}
	var n int
	fmt.Sscan(os.Getenv("SAVE_MANY_COUNT"), &n)
	for i := range n {
		if err := SaveLocal(root, policy.Allow, fmt.Sprintf("run_command(%s-%d)", os.Getenv("SAVE_MANY_PREFIX"), i)); err != nil {
			t.Fatal(err)
		}
	}
}
