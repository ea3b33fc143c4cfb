package completion

import (
	"path/filepath"
	"strings"

	"github.com/tandemhq/tandem/agent/tools"
)

// privateFile is the next-edit engine's rule when its caller gives none:
// a file outside the workspace root, one of tandem's protected files
// (.git, .tandem, editor settings), or an environment file (.env,
// .env.local) never reaches the model.
func privateFile(root, path string) bool {
	base := strings.ToLower(filepath.Base(path))
	return root == "" || tools.Protected(root, path, nil) || base == ".env" || strings.HasPrefix(base, ".env.")
}
