package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Fork copies session id's log under a new id and returns the new sidecar:
// the copy starts where the original is now and goes on independently.
// The caller syncs the original's log first if it is open.
func (s *Store) Fork(id string) (Meta, error) {
	m, err := s.Meta(id)
	if err != nil {
		return Meta{}, err
	}
	m.ID = NewID()
	now := time.Now().UTC()
	m.Created, m.Updated = now, now
	dst, _ := s.sessionDir(m.ID)
	if err := os.Mkdir(dst, 0o700); err != nil {
		return Meta{}, fmt.Errorf("store: fork %s: %w", id, err)
	}
	if err := s.copyLogTo(id, filepath.Join(dst, "events.jsonl")); err != nil {
		os.RemoveAll(dst)
		return Meta{}, fmt.Errorf("store: fork %s: %w", id, err)
	}
	l := &Log{dir: dst}
	if err := l.SetMeta(m); err != nil {
		os.RemoveAll(dst)
		return Meta{}, err
	}
	return m, nil
}

// copyLogTo writes session id's log to a new file at path, on stable
// storage before it returns.
func (s *Store) copyLogTo(id, path string) error {
	out, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if err := s.CopyLog(id, out); err != nil {
		out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// Delete removes session id for good.
func (s *Store) Delete(id string) error {
	dir, err := s.sessionDir(id)
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(dir, "meta.json")); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("store: delete %s: %w", id, err)
	}
	return nil
}
