//go:build windows

package atomicfile

import (
	"path/filepath"
	"testing"

	"golang.org/x/sys/windows"
)

// unsyncable makes dir/name impossible to open for its flush: the test
// holds it open sharing nothing, so every other open is a sharing
// violation. (A path under a plain file, the Unix case, is simply "not
// found" here; a read-only file would do on Windows but not under Wine
// run as root.)
func unsyncable(t *testing.T, dir, name string) {
	t.Helper()
	p, err := windows.UTF16PtrFromString(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	h, err := windows.CreateFile(p, windows.GENERIC_READ, 0, nil, windows.OPEN_EXISTING, windows.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { windows.CloseHandle(h) })
}
