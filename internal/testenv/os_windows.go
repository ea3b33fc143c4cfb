//go:build windows

package testenv

import (
	"errors"
	"os/exec"

	"golang.org/x/sys/windows"
)

// Alive reports whether pid is a running process.
func Alive(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	var code uint32
	if err := windows.GetExitCodeProcess(h, &code); err != nil {
		return false
	}
	const stillActive = 259
	return code == stillActive
}

// Mkfifo fails on Windows: its named pipes live outside the file system.
func Mkfifo(string) error {
	return errors.New("testenv: Windows has no named pipes in the file system")
}

// AsUser does nothing on Windows: there is no uid to switch to.
func AsUser(*exec.Cmd, uint32, uint32) {}
