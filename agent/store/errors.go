package store

import (
	"errors"
	"fmt"

	"github.com/tandemhq/tandem/internal/fserr"
)

// ErrSave wraps every failure to write a session to disk, so the agent can
// end the turn with it instead of losing events silently.
var ErrSave = errors.New("could not save the session")

// saveError names the usual causes in words a user acts on.
func saveError(err error) error {
	switch {
	case fserr.DiskFull(err):
		return fmt.Errorf("%w: disk full: %w", ErrSave, err)
	case fserr.TooLarge(err):
		return fmt.Errorf("%w: disk full (the file size limit was reached): %w", ErrSave, err)
	case fserr.IO(err):
		return fmt.Errorf("%w: I/O error: %w", ErrSave, err)
	}
	return fmt.Errorf("%w: %w", ErrSave, err)
}
