//go:build !unix

package atomicfile

import "os"

// syncOpenFlags open a path only to fsync it (syncPath checks its kind
// first).
const syncOpenFlags = os.O_RDONLY
