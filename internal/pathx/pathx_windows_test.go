package pathx

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tandemhq/tandem/internal/testenv"
	winapi "golang.org/x/sys/windows"
)

// On Windows the native rule is the Windows one: one drive spelled two
// ways is one root, and another drive is never inside.
func TestWithinNativeWindows(t *testing.T) {
	if rel, ok := Within(`C:\Repo`, `c:\repo\Src\a.go`); !ok || rel != `Src\a.go` {
		t.Errorf(`Within(C:\Repo, c:\repo\Src\a.go) = %q, %v`, rel, ok)
	}
	if _, ok := Within(`C:\Repo`, `D:\Repo\a.go`); ok {
		t.Error(`D:\Repo\a.go counted as inside C:\Repo`)
	}
	if _, ok := Within(`\\srv\share\repo`, `\\SRV\Share\repo\a`); !ok {
		t.Error("UNC share spelled in another case counted as outside")
	}
}

// The aliases the file system really gives protected names are ones
// MaybeShortName recognises (under Wine too, whose scheme differs).
func TestMaybeShortNameMatchesTheFileSystem(t *testing.T) {
	dir := testenv.TempDir(t)
	for _, name := range []string{".git", ".tandem", ".vscode", "copilot-instructions.md", "x.code-workspace"} {
		p := filepath.Join(dir, name)
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
		long, err := winapi.UTF16PtrFromString(p)
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]uint16, winapi.MAX_PATH)
		n, err := winapi.GetShortPathName(long, &buf[0], uint32(len(buf)))
		if err != nil {
			t.Fatal(err)
		}
		alias := filepath.Base(winapi.UTF16ToString(buf[:n]))
		if alias == name {
			t.Logf("%s has no 8.3 alias on this volume", name)
			continue
		}
		if !MaybeShortName(alias) {
			t.Errorf("%s's alias %s is not recognised as a short name", name, alias)
		}
	}
}
