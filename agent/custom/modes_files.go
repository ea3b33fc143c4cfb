package custom

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tandemhq/tandem/internal/pathx"
)

// Bounds on a folder of mode or agent definitions. Real folders hold a few
// files of a few kilobytes; the caps keep a hostile repository from costing
// more than that.
const (
	maxDefBytes = 256 << 10
	maxDefFiles = 200
)

// validSlug is what a mode slug or agent name may look like: it becomes an
// id editors and the model see, so it stays plain. It checks
// ^[a-z0-9][a-z0-9._-]{0,63}$ byte by byte (no regexp to compile).
func validSlug(s string) bool {
	if s == "" || len(s) > 64 || !lowerAlnum(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; c != '.' && c != '_' && c != '-' && !lowerAlnum(c) {
			return false
		}
	}
	return true
}

// defFile is one Markdown file of a definitions folder.
type defFile struct {
	path string
	slug string // the file name without .md
	data []byte
}

// readDefFiles reads the *.md files directly inside dir, sorted by name. A
// missing folder is no error. A file that cannot be read, is too large, or
// is a link leading out of dir is reported and skipped.
func readDefFiles(dir string) ([]defFile, []error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []error{fmt.Errorf("%s: %w", dir, err)}
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	var (
		out  []defFile
		errs []error
	)
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".md") || e.IsDir() {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if len(out) == maxDefFiles {
			errs = append(errs, fmt.Errorf("%s: more than %d definition files; the rest are ignored", dir, maxDefFiles))
			break
		}
		data, err := readDefFile(dir, path)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", path, err))
			continue
		}
		out = append(out, defFile{path: path, slug: strings.TrimSuffix(e.Name(), ".md"), data: data})
	}
	return out, errs
}

// readDefFile reads one definition, refusing links out of dir: a project's
// folder must not pull a file from elsewhere on the machine into a prompt.
func readDefFile(dir, path string) ([]byte, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, err
	}
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, err
	}
	if _, ok := pathx.Within(realDir, real); !ok {
		return nil, fmt.Errorf("links outside %s", dir)
	}
	fi, err := os.Stat(real)
	switch {
	case err != nil:
		return nil, err
	case !fi.Mode().IsRegular():
		return nil, errors.New("not a regular file")
	case fi.Size() > maxDefBytes:
		return nil, fmt.Errorf("larger than %d bytes", maxDefBytes)
	}
	return os.ReadFile(real)
}

// checkSlug reports why s cannot be an id.
func checkSlug(s string) error {
	if !validSlug(s) {
		return fmt.Errorf("%q is not a valid name: use lower-case letters, digits, '.', '-' and '_' (at most 64)", s)
	}
	return nil
}
