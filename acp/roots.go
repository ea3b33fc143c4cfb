package acp

import (
	"os"
	"path/filepath"
)

// checkAdditionalDirs enforces ACP's rule for additionalDirectories before
// the agent sees them: each one absolute and an existing directory, as cwd
// is. The agent makes them further session roots, readable and writable
// under the same rules as cwd.
func checkAdditionalDirs(dirs []string) error {
	for _, d := range dirs {
		if !filepath.IsAbs(d) {
			return invalidParams("additionalDirectories must be absolute paths, got %q", d)
		}
		st, err := os.Stat(d)
		if err != nil {
			return invalidParams("additional directory %q cannot be used: %v", d, err)
		}
		if !st.IsDir() {
			return invalidParams("additional directory %q is not a directory", d)
		}
	}
	return nil
}
