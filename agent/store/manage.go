package store

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Size returns the bytes a stored session takes on disk: its log, its
// sidecar and anything else in its directory.
func (s *Store) Size(id string) (int64, error) {
	dir, err := s.sessionDir(id)
	if err != nil {
		return 0, err
	}
	var n int64
	err = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if info, err := d.Info(); err == nil && d.Type().IsRegular() {
			n += info.Size()
		}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return 0, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	return n, err
}

// CopyLog writes a session's event log to w as stored, one JSON record per
// line: the export format.
func (s *Store) CopyLog(id string, w io.Writer) error {
	if _, err := s.Meta(id); err != nil {
		return err
	}
	dir, _ := s.sessionDir(id)
	f, err := os.Open(filepath.Join(dir, "events.jsonl"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer f.Close()
	_, err = io.Copy(w, f)
	return err
}

// Resolve finds the stored session an id or a unique prefix of one names,
// so people can type the first few characters.
func (s *Store) Resolve(idOrPrefix string) (string, error) {
	if !validID(idOrPrefix) {
		return "", fmt.Errorf("%w: invalid id %q", ErrNotFound, idOrPrefix)
	}
	if _, err := os.Stat(filepath.Join(s.dir, idOrPrefix, "meta.json")); err == nil {
		return idOrPrefix, nil
	}
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return "", fmt.Errorf("store: %w", err)
	}
	var found []string
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), idOrPrefix) && validID(e.Name()) {
			found = append(found, e.Name())
		}
	}
	switch len(found) {
	case 0:
		return "", fmt.Errorf("%w: %s", ErrNotFound, idOrPrefix)
	case 1:
		return found[0], nil
	}
	return "", fmt.Errorf("%q names %d sessions (%s, ...): give more of the id", idOrPrefix, len(found), found[0])
}
