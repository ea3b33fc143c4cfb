package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/title"
)

// sessionsRename is `tandem sessions rename ID TITLE...`: the title a user
// gives is kept from then on (no model-written title replaces it). It
// writes the stored sidecar, so a session open in an editor at the time
// keeps its own title there; the editor's rename reaches it instead.
func (m *Main) sessionsRename(args []string) error {
	fs := m.flags("sessions rename", "ID TITLE...")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) < 2 {
		fs.Usage()
		return errUsage
	}
	t := title.Clean(strings.Join(rest[1:], " "))
	if t == "" {
		return agent.ErrEmptyTitle
	}
	st, err := m.openStore()
	if err != nil {
		return err
	}
	id, err := st.Resolve(rest[0])
	if err != nil {
		return fmt.Errorf("%w (tandem sessions lists them)", err)
	}
	meta, err := st.Rename(id, t)
	if err != nil {
		return errors.Join(fmt.Errorf("renaming %s", id), err)
	}
	fmt.Fprintf(m.Stderr, "renamed %s: %s\n", meta.ID, meta.Title)
	return nil
}
