package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// A watcher of the edited file's directory hears the name leave and then
// arrive, so one that trusts the events without a stat still ends up
// knowing the file is there (the exchange's other order would end with
// the name leaving, which reads as a deletion).
func TestSpareWatcherEndsWithTheFilePresent(t *testing.T) {
	d, root, _, _ := spareDir(t)
	p := filepath.Join(root, "w.txt")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	if _, err := unix.InotifyAddWatch(fd, root, unix.IN_CREATE|unix.IN_DELETE|unix.IN_MOVED_FROM|unix.IN_MOVED_TO); err != nil {
		t.Fatal(err)
	}
	if err := WriteIn(d, "w.txt", []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4096)
	n, err := unix.Read(fd, buf)
	if err != nil {
		t.Fatal(err)
	}
	var events []string
	for off := 0; off < n; {
		ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
		name := strings.TrimRight(string(buf[off+unix.SizeofInotifyEvent:off+unix.SizeofInotifyEvent+int(ev.Len)]), "\x00")
		kind := map[uint32]string{unix.IN_CREATE: "create", unix.IN_DELETE: "delete", unix.IN_MOVED_FROM: "from", unix.IN_MOVED_TO: "to"}[ev.Mask&^unix.IN_ISDIR]
		events = append(events, kind+" "+name)
		off += unix.SizeofInotifyEvent + int(ev.Len)
	}
	if got := strings.Join(events, ", "); got != "from w.txt, to w.txt" {
		t.Errorf("the watcher heard %q, want the name to leave and then arrive: from w.txt, to w.txt", got)
	}
}
