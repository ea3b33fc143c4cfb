package plugin

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type entry struct {
	name, body, link string
	typ              byte
	size             int64
}

func tarGz(t *testing.T, entries ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Mode: 0o644, Typeflag: e.typ, Linkname: e.link, Size: int64(len(e.body))}
		if e.typ == 0 {
			h.Typeflag = tar.TypeReg
		}
		if e.size > 0 {
			h.Size = e.size
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if e.size > 0 {
			for left := e.size; left > 0; left -= 1 << 20 {
				tw.Write(make([]byte, min(left, 1<<20)))
			}
		} else {
			tw.Write([]byte(e.body))
		}
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

const okManifest = `{"name":"ok","version":"1.0.0","main":"python3 p.py"}`

func TestInstallArchive(t *testing.T) {
	dir, src := t.TempDir(), t.TempDir()
	good := tarGz(t, entry{name: "ok/plugin.json", body: okManifest}, entry{name: "ok/p.py", body: "print()"})
	path := filepath.Join(src, "ok.tar.gz")
	os.WriteFile(path, good, 0o644)
	p, err := Install(context.Background(), path, InstallOptions{Dir: dir})
	if err != nil || p.Dir != filepath.Join(dir, "ok") || !fileExists(filepath.Join(dir, "ok", "p.py")) {
		t.Fatalf("%+v %v", p, err)
	}
	if _, err := Install(context.Background(), path, InstallOptions{Dir: dir}); err == nil || !strings.Contains(err.Error(), "already installed") {
		t.Errorf("reinstall: %v", err)
	}
	for name, data := range map[string][]byte{
		"traversal": tarGz(t, entry{name: "plugin.json", body: okManifest}, entry{name: "../../evil", body: "x"}),
		"absolute":  tarGz(t, entry{name: "plugin.json", body: okManifest}, entry{name: "/tmp/evil", body: "x"}),
		"symlink":   tarGz(t, entry{name: "plugin.json", body: okManifest}, entry{name: "l", typ: tar.TypeSymlink, link: "/etc/passwd"}),
		"hardlink":  tarGz(t, entry{name: "plugin.json", body: okManifest}, entry{name: "l", typ: tar.TypeLink, link: "plugin.json"}),
		"too big":   tarGz(t, entry{name: "plugin.json", body: okManifest}, entry{name: "big", size: MaxInstallBytes + 1}),
		"no plugin": tarGz(t, entry{name: "readme", body: "x"}),
	} {
		p := filepath.Join(src, "bad.tar.gz")
		os.WriteFile(p, data, 0o644)
		if _, err := Install(context.Background(), p, InstallOptions{Dir: t.TempDir()}); err == nil {
			t.Errorf("%s: installed", name)
		}
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "evil")); err == nil {
		t.Error("a traversal wrote outside")
	}
}

func TestInstallFolderRefusesLinks(t *testing.T) {
	src := folder(t, t.TempDir(), "ok", okManifest)
	os.Symlink("/etc/passwd", filepath.Join(src, "link"))
	if _, err := Install(context.Background(), src, InstallOptions{Dir: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "link") {
		t.Errorf("err %v", err)
	}
}

func TestInstallURL(t *testing.T) {
	data := tarGz(t, entry{name: "plugin.json", body: okManifest})
	sum := sha256.Sum256(data)
	pin := hex.EncodeToString(sum[:])
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(data) }))
	defer srv.Close()
	ctx := context.Background()
	// Plain http is fine from this machine; the pin must match.
	if _, err := Install(ctx, srv.URL+"/ok.sha256-"+pin+".tar.gz", InstallOptions{Dir: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	wrong := strings.Repeat("0", 64)
	if _, err := Install(ctx, srv.URL+"/ok.sha256-"+wrong+".tar.gz", InstallOptions{Dir: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "pins") {
		t.Errorf("pin mismatch: %v", err)
	}
	if _, err := Install(ctx, "http://example.com/ok.tar.gz", InstallOptions{Dir: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "https only") {
		t.Errorf("plain http elsewhere: %v", err)
	}
}

func TestPackRoundTrip(t *testing.T) {
	src := folder(t, t.TempDir(), "ok", okManifest)
	os.WriteFile(filepath.Join(src, "p.py"), []byte("print()"), 0o755)
	var buf bytes.Buffer
	if _, err := Pack(src, &buf); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "ok-1.0.0.tar.gz")
	os.WriteFile(out, buf.Bytes(), 0o644)
	p, err := Install(context.Background(), out, InstallOptions{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(p.Dir, "p.py"))
	if err != nil || st.Mode()&0o100 == 0 {
		t.Errorf("p.py: %v %v", st, err)
	}
}
