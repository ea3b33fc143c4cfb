package atomicfile

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// setDefaultACL gives dir a default ACL with a named user entry, so that
// every file made in it gets an access ACL (what a shared project
// directory does); the test is skipped where the file system has no ACLs.
func setDefaultACL(t *testing.T, dir string) {
	t.Helper()
	entry := func(tag, perm uint16, id uint32) []byte {
		b := binary.LittleEndian.AppendUint16(nil, tag)
		b = binary.LittleEndian.AppendUint16(b, perm)
		return binary.LittleEndian.AppendUint32(b, id)
	}
	const undefined = 0xffffffff
	acl := binary.LittleEndian.AppendUint32(nil, 2) // version
	acl = append(acl, entry(0x01, 6, undefined)...) // user::rw-
	acl = append(acl, entry(0x02, 6, 54321)...)     // user:54321:rw-
	acl = append(acl, entry(0x04, 4, undefined)...) // group::r--
	acl = append(acl, entry(0x10, 6, undefined)...) // mask::rw-
	acl = append(acl, entry(0x20, 4, undefined)...) // other::r--
	if err := unix.Setxattr(dir, "system.posix_acl_default", acl, 0); err != nil {
		if err == unix.ENOTSUP || err == unix.EOPNOTSUPP {
			t.Skipf("no ACLs on %s: %v", dir, err)
		}
		t.Fatal(err)
	}
}

func hasAccessACL(t *testing.T, p string) bool {
	t.Helper()
	_, err := unix.Getxattr(p, "system.posix_acl_access", nil)
	if err != nil && err != unix.ENODATA {
		t.Fatal(err)
	}
	return err == nil
}

// A file in a directory with a default ACL keeps the ACL through an edit,
// as the rename did (its new file inherited the directory's): the
// exchange would put the spare, made outside the tree without it, in its
// place, and the users the ACL names would lose the file.
func TestSpareKeepsTheTreesACL(t *testing.T) {
	d, root, _, _ := spareDir(t)
	setDefaultACL(t, root)
	p := filepath.Join(root, "a")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !hasAccessACL(t, p) {
		t.Skip("the file system did not apply the default ACL")
	}
	for _, c := range []string{"one", "two"} {
		if err := WriteIn(d, "a", []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(p); string(got) != c {
			t.Fatalf("a = %q, want %q", got, c)
		}
		if !hasAccessACL(t, p) {
			t.Fatalf("after writing %q the file lost the ACL its directory gives", c)
		}
	}
}

// A spare that is born with attributes (a default ACL on the home, or a
// security label every new file gets) never reaches the tree: the edited
// file would take the home's ACL or label instead of its directory's.
func TestSpareNeverBringsTheHomesACL(t *testing.T) {
	d, root, home, _ := spareDir(t)
	setDefaultACL(t, home)
	p := filepath.Join(root, "a")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"one", "two"} {
		if err := WriteIn(d, "a", []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(p); string(got) != c {
			t.Fatalf("a = %q, want %q", got, c)
		}
		if hasAccessACL(t, p) {
			t.Fatalf("after writing %q the file carries the ACL of the spares' home", c)
		}
	}
}
