//go:build windows

package proc

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Tree is a started command's process tree: on Windows a Job Object the
// command was put in before it ran a single instruction; every process it
// starts is in the job too, and closing the job ends them all.
type Tree struct {
	pid   uint32
	jobMu sync.Mutex // guards job: Close may race Kill from another goroutine
	job   windows.Handle
}

// Group makes cmd, before it starts, start suspended and in a console
// process group of its own (so Terminate's Ctrl-Break reaches it and not
// tandem), keeping whatever else cmd.SysProcAttr says. Track puts it in
// its job and lets it run.
func Group(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CreationFlags |= windows.CREATE_NEW_PROCESS_GROUP | windows.CREATE_SUSPENDED
}

func track(pid int) (*Tree, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return nil, fmt.Errorf("CreateJobObject: %w", err)
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{
		BasicLimitInformation: windows.JOBOBJECT_BASIC_LIMIT_INFORMATION{
			LimitFlags: windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
		},
	}
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return nil, fmt.Errorf("SetInformationJobObject: %w", err)
	}
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(pid))
	if err != nil {
		windows.CloseHandle(job)
		return nil, fmt.Errorf("OpenProcess: %w", err)
	}
	err = windows.AssignProcessToJobObject(job, h)
	windows.CloseHandle(h)
	if err != nil {
		windows.CloseHandle(job)
		return nil, fmt.Errorf("AssignProcessToJobObject: %w", err)
	}
	if err := resume(uint32(pid)); err != nil {
		windows.TerminateJobObject(job, 1)
		windows.CloseHandle(job)
		return nil, err
	}
	return &Tree{pid: uint32(pid), job: job}, nil
}

// resume lets the threads of a process started suspended run. Go's
// os/exec keeps the main thread's handle to itself, so the threads are
// found by a snapshot; a process not started suspended is unaffected
// (its threads' suspend count is already zero).
func resume(pid uint32) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return fmt.Errorf("CreateToolhelp32Snapshot: %w", err)
	}
	defer windows.CloseHandle(snap)
	var te windows.ThreadEntry32
	te.Size = uint32(unsafe.Sizeof(te))
	resumed := false
	for err = windows.Thread32First(snap, &te); err == nil; err = windows.Thread32Next(snap, &te) {
		if te.OwnerProcessID != pid {
			continue
		}
		th, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, te.ThreadID)
		if err != nil {
			return fmt.Errorf("OpenThread: %w", err)
		}
		_, err = windows.ResumeThread(th)
		windows.CloseHandle(th)
		if err != nil {
			return fmt.Errorf("ResumeThread: %w", err)
		}
		resumed = true
	}
	if !errors.Is(err, windows.ERROR_NO_MORE_FILES) {
		return fmt.Errorf("Thread32Next: %w", err)
	}
	if !resumed {
		return fmt.Errorf("no thread of process %d found", pid)
	}
	return nil
}

// Terminate asks the tree to end with a Ctrl-Break to its console process
// group, which console programs may catch to clean up; it does nothing to
// a program without a console, which the caller's Kill after a grace then
// ends.
func (t *Tree) Terminate() error {
	if t == nil {
		return nil
	}
	if err := windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, t.pid); err != nil {
		return fmt.Errorf("GenerateConsoleCtrlEvent: %w", err)
	}
	return nil
}

// Kill ends every process in the job at once. A tree already closed is no
// error.
func (t *Tree) Kill() error {
	return t.withJob(func(job windows.Handle) error {
		if err := windows.TerminateJobObject(job, 1); err != nil {
			return fmt.Errorf("TerminateJobObject: %w", err)
		}
		return nil
	})
}

// Close ends whatever is left in the job (it was made kill-on-close) and
// releases it.
func (t *Tree) Close() error {
	return t.withJob(func(job windows.Handle) error {
		t.job = 0
		return windows.CloseHandle(job)
	})
}

// withJob runs f on the job unless the tree is nil or closed.
func (t *Tree) withJob(f func(windows.Handle) error) error {
	if t == nil {
		return nil
	}
	t.jobMu.Lock()
	defer t.jobMu.Unlock()
	if t.job == 0 {
		return nil
	}
	return f(t.job)
}

// ExitSignal is "" on Windows: no signal ends a process there; a killed
// one exits with the code its killer chose.
func ExitSignal(*os.ProcessState) string { return "" }
