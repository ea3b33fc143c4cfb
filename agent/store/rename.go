package store

import "time"

// Who wrote a session's title (Meta.TitleBy); "" is the first prompt.
const (
	TitleByModel = "model"
	TitleByUser  = "user"
)

// Rename gives stored session id the title a user chose, for a session
// that is not open: an open one keeps its title in memory and would write
// its own over this (agent.Agent.RenameSession goes through it instead).
func (s *Store) Rename(id, title string) (Meta, error) {
	m, err := s.Meta(id)
	if err != nil {
		return Meta{}, err
	}
	m.Title, m.TitleBy, m.Updated = title, TitleByUser, time.Now().UTC()
	dir, _ := s.sessionDir(id)
	if err := (&Log{dir: dir}).SetMeta(m); err != nil {
		return Meta{}, err
	}
	return m, nil
}
