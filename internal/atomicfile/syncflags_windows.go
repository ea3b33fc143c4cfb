//go:build windows

package atomicfile

import "os"

// syncOpenFlags open a file only to flush it: FlushFileBuffers refuses a
// handle without write access ("Access denied"), so a read-only open, as
// on Unix, syncs nothing. Opening for writing changes nothing in the file.
const syncOpenFlags = os.O_RDWR

// syncDirs is false: Windows has no directory fsync Go can reach (os
// refuses to open a directory for writing, and FlushFileBuffers refuses a
// read handle), and NTFS journals the rename itself. SQLite, likewise,
// never syncs a directory on Windows.
const syncDirs = false
