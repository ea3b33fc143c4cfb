package lsp

import (
	"os"
	"path/filepath"

	"github.com/tandemhq/tandem/internal/pathx"
)

// additionalFolders is what a session started in cwd takes as its further
// roots: the client's other workspace folders, so a multi-root workspace is
// one session that can read and write every folder. A folder that holds
// cwd or lies inside it adds nothing (cwd's confinement already covers it,
// or widening to it was not asked for), and one that is gone is left out.
func (s *Server) additionalFolders(cwd string) []string {
	s.stateMu.Lock()
	folders := append([]string(nil), s.folders...)
	s.stateMu.Unlock()
	cwd = filepath.Clean(cwd)
	var out []string
	for _, f := range folders {
		f = filepath.Clean(f)
		if _, in := pathx.Within(f, cwd); in {
			continue
		}
		if _, in := pathx.Within(cwd, f); in {
			continue
		}
		if st, err := os.Stat(f); err != nil || !st.IsDir() || !filepath.IsAbs(f) {
			continue
		}
		out = append(out, f)
	}
	return out
}
