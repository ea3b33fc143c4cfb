package release

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// writeArchive packs the binary and the docs at the archive's top level
// (the registry entry's cmd is ./tandem), every entry dated epoch and owned
// by root, so the archive depends only on its contents.
func writeArchive(path string, t Target, bin string, docs []string, epoch time.Time) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	files := append([]string{bin}, docs...)
	if t.GOOS == "windows" {
		err = writeZip(f, files, epoch)
	} else {
		err = writeTarGz(f, files, epoch)
	}
	if err != nil {
		return err
	}
	return f.Close()
}

func writeTarGz(w io.Writer, files []string, epoch time.Time) error {
	gz, err := gzip.NewWriterLevel(w, gzip.DefaultCompression)
	if err != nil {
		return err
	}
	gz.ModTime = epoch // the gzip header's date too
	tw := tar.NewWriter(gz)
	for i, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		mode := int64(0o644)
		if i == 0 {
			mode = 0o755
		}
		h := &tar.Header{Name: filepath.Base(p), Mode: mode, Size: int64(len(b)), ModTime: epoch,
			Typeflag: tar.TypeReg, Uname: "root", Gname: "root", Format: tar.FormatPAX}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if _, err := tw.Write(b); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

func writeZip(w io.Writer, files []string, epoch time.Time) error {
	zw := zip.NewWriter(w)
	for i, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		h := &zip.FileHeader{Name: filepath.Base(p), Method: zip.Deflate, Modified: epoch.UTC()}
		mode := os.FileMode(0o644)
		if i == 0 {
			mode = 0o755
		}
		h.SetMode(mode)
		fw, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if _, err := fw.Write(b); err != nil {
			return err
		}
	}
	return zw.Close()
}

// writeSums writes SHA256SUMS (sha256sum's format, sorted by name) and
// returns the sums by file name.
func writeSums(path string, files []string) (map[string]string, error) {
	sums := map[string]string{}
	var names []string
	for _, p := range files {
		s, err := sha256File(p)
		if err != nil {
			return nil, err
		}
		sums[filepath.Base(p)] = s
		names = append(names, filepath.Base(p))
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "%s  %s\n", sums[n], n)
	}
	return sums, os.WriteFile(path, []byte(b.String()), 0o644)
}

func sha256File(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
