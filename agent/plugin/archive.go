package plugin

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Install limits: what a plugin may weigh, unpacked, and how many files
// it may have. An archive past either is refused, not truncated.
const (
	MaxInstallBytes = 64 << 20
	MaxInstallFiles = 10000
)

// errLimit marks an archive or folder over the install limits.
var errLimit = errors.New("over the install limits")

// extractTarGz unpacks a gzip'd tar into dst (which must exist), refusing
// anything but regular files and folders: no symlinks or hard links (they
// could point out of the plugin), no devices, no absolute names or "..",
// and nothing past the limits.
func extractTarGz(r io.Reader, dst string) error {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return fmt.Errorf("not a gzip'd tar archive: %w", err)
	}
	tr := tar.NewReader(zr)
	var total int64
	for files := 0; ; files++ {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading the archive: %w", err)
		}
		if files >= MaxInstallFiles {
			return fmt.Errorf("the archive has more than %d entries: %w", MaxInstallFiles, errLimit)
		}
		name, err := entryName(h.Name)
		if err != nil {
			return err
		}
		if name == "" {
			continue
		}
		target := filepath.Join(dst, filepath.FromSlash(name))
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			total += h.Size
			if h.Size < 0 || total > MaxInstallBytes {
				return fmt.Errorf("the archive unpacks to more than %d bytes: %w", MaxInstallBytes, errLimit)
			}
			if err := writeEntry(target, tr, h.Size, fs.FileMode(h.Mode)); err != nil {
				return err
			}
		case tar.TypeXGlobalHeader:
		default:
			return fmt.Errorf("the archive entry %s is a link or special file; plugins may hold only files and folders", h.Name)
		}
	}
}

// entryName cleans an archive name; "" for the archive's root.
func entryName(n string) (string, error) {
	n = strings.ReplaceAll(n, `\`, "/")
	clean := path.Clean("/" + n)[1:]
	if path.IsAbs(n) || strings.Contains("/"+n+"/", "/../") || strings.Contains(n, ":") {
		return "", fmt.Errorf("the archive entry %q leaves the plugin folder", n)
	}
	return clean, nil
}

func writeEntry(target string, r io.Reader, size int64, mode fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	// O_EXCL: an entry never replaces anything, symlinks included.
	f, err := os.OpenFile(target, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644|(mode&0o111))
	if err != nil {
		return err
	}
	_, err = io.CopyN(f, r, size)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// copyFolder copies a plugin folder, with the same rules as an archive:
// files and folders only, within the limits. .git is left out.
func copyFolder(src, dst string) error {
	var total int64
	files := 0
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir() && d.Name() == ".git" && rel != ".":
			return filepath.SkipDir
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case !d.Type().IsRegular():
			return fmt.Errorf("%s is a link or special file; plugins may hold only files and folders", p)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		files++
		total += info.Size()
		if total > MaxInstallBytes || files > MaxInstallFiles {
			return fmt.Errorf("%s is larger than %d bytes or %d files: %w", src, MaxInstallBytes, MaxInstallFiles, errLimit)
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		return writeEntry(target, f, info.Size(), info.Mode())
	})
}

// Pack writes the plugin folder src as a gzip'd tar to w, its files under
// "<name>/". Links are refused, as installing would refuse them.
func Pack(src string, w io.Writer) (*Manifest, error) {
	p, err := ReadFolder(src, ScopeUser)
	if err != nil {
		return nil, err
	}
	if p == nil {
		return nil, fmt.Errorf("%s has no plugin.json", src)
	}
	zw := gzip.NewWriter(w)
	tw := tar.NewWriter(zw)
	err = filepath.WalkDir(src, func(fp string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, fp)
		if d.IsDir() && d.Name() == ".git" && rel != "." {
			return filepath.SkipDir
		}
		if !d.IsDir() && !d.Type().IsRegular() {
			return fmt.Errorf("%s is a link or special file; a plugin may hold only files and folders", fp)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		h, err := tar.FileInfoHeader(info, "")
		if err != nil {
			return err
		}
		h.Name = path.Join(p.Manifest.Name, filepath.ToSlash(rel))
		h.Uid, h.Gid, h.Uname, h.Gname = 0, 0, "", ""
		if d.IsDir() {
			h.Name += "/"
		}
		if err := tw.WriteHeader(h); err != nil || d.IsDir() {
			return err
		}
		f, err := os.Open(fp)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.Copy(tw, f)
		return err
	})
	if err == nil {
		err = tw.Close()
	}
	if err == nil {
		err = zw.Close()
	}
	return p.Manifest, err
}
