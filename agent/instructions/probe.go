package instructions

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/tandemhq/tandem/internal/fserr"
)

// racyWindow: a file modified within this long before we read it could
// change again without its mtime moving (coarse timestamps), so its version
// alone is not trusted until a later read.
const racyWindow = 2 * time.Second

var (
	errTooLarge = errors.New("larger than the per-file limit")
	errNotFile  = errors.New("not a regular file")
)

// outcome is what probing one slot found.
type outcome uint8

const (
	outAbsent  outcome = iota // every candidate probed fine, none is a file
	outFound                  // a winner, with digest (and content if read)
	outUnknown                // a failure hides the answer; change nothing
)

type probeResult struct {
	out      outcome
	file     string
	ver      fileVersion
	readAt   time.Time
	content  []byte // nil when the version matched and no read was needed
	digest   string
	size     int64
	problems []Problem
	// What a later fast path may rely on (see prober.fast).
	clean    bool
	dirVer   fileVersion
	probedAt time.Time
}

// prober probes slots for one tracker operation.
type prober struct {
	fsys   fileSystem
	maxSrc int64
	now    func() time.Time
}

// probe finds the winner among names in dir. prev (may be nil) is the
// session's current state for the slot; it lets an unchanged file skip the
// read, and a failing candidate that prev depends on freezes the slot. dirVer
// is the directory's current version, or nil when it could not be read.
func (p *prober) probe(ctx context.Context, dir string, names []string, prev *scopeState, dirVer *fileVersion) (probeResult, error) {
	if res, ok, err := p.fast(ctx, prev, dirVer); ok || err != nil {
		return res, err
	}
	res := probeResult{clean: dirVer != nil, probedAt: p.now()}
	if dirVer != nil {
		res.dirVer = *dirVer
	}
	var failed []string
	for _, name := range names {
		file := filepath.Join(dir, name)
		if err := ctx.Err(); err != nil {
			return res, err
		}
		// Lstat first: a missing name costs one call, and a dangling or
		// redirected symlink is told apart from a name that is not there.
		fi, err := p.fsys.Lstat(file)
		if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			res.clean = false
			if err = ctx.Err(); err != nil {
				return res, err
			}
			fi, err = p.fsys.Stat(file)
		}
		if err != nil {
			if absent(err) {
				continue
			}
			res.clean = false
			failed = append(failed, file)
			res.problems = append(res.problems, Problem{file, err.Error()})
			continue
		}
		if !fi.Mode().IsRegular() {
			res.clean = false
			continue
		}
		if prev.live() && contains(failed, prev.file) {
			// The scope's loaded file could not be probed: keep it.
			res.out = outUnknown
			return res, nil
		}
		return p.load(ctx, file, fi, prev, res)
	}
	if len(failed) > 0 {
		res.out = outUnknown
	} else {
		res.out = outAbsent
	}
	return res, nil
}

// fast answers from prev without probing every candidate when the
// directory's entries cannot have changed: same directory version, old
// enough to trust, and the last full probe saw only plain files and plain
// absences (no symlinks or odd entries whose targets could move). Then only
// the winner, if any, needs a stat.
func (p *prober) fast(ctx context.Context, prev *scopeState, dirVer *fileVersion) (probeResult, bool, error) {
	if prev == nil || !prev.clean || dirVer == nil || prev.dirVer != *dirVer ||
		prev.dirVer.mtime >= prev.probedAt.Add(-racyWindow).UnixNano() {
		return probeResult{}, false, nil
	}
	res := probeResult{clean: true, dirVer: prev.dirVer, probedAt: prev.probedAt}
	if !prev.live() {
		res.out = outAbsent
		return res, true, nil
	}
	if err := ctx.Err(); err != nil {
		return res, false, err
	}
	fi, err := p.fsys.Lstat(prev.file)
	if err != nil || !fi.Mode().IsRegular() {
		return probeResult{}, false, nil // let a full probe decide
	}
	res, err = p.load(ctx, prev.file, fi, prev, res)
	return res, true, err
}

// load settles the winning candidate: reuse prev when its version is
// trustworthy, else read within the size cap and hash.
func (p *prober) load(ctx context.Context, file string, fi fs.FileInfo, prev *scopeState, res probeResult) (probeResult, error) {
	res.file = file
	res.ver = versionOf(fi)
	res.size = fi.Size()
	if prev.live() && prev.file == file && prev.verOK && prev.ver == res.ver &&
		prev.ver.mtime < prev.readAt.Add(-racyWindow).UnixNano() {
		res.out = outFound
		res.digest = prev.digest
		res.readAt = prev.readAt
		return res, nil
	}
	unavailable := func(err error) (probeResult, error) {
		res.out = outUnknown
		res.problems = append(res.problems, Problem{file, err.Error()})
		return res, nil
	}
	if fi.Size() > p.maxSrc {
		return unavailable(fmt.Errorf("%w (%d > %d bytes)", errTooLarge, fi.Size(), p.maxSrc))
	}
	res.readAt = p.now()
	data, fi2, err := p.read(ctx, file)
	if err != nil {
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		return unavailable(err)
	}
	if fi2 != nil {
		res.ver = versionOf(fi2)
	}
	sum := sha1.Sum(data)
	res.out = outFound
	res.content = data
	res.digest = hex.EncodeToString(sum[:])
	res.size = int64(len(data))
	return res, nil
}

// absent reports errors that mean "no such candidate" rather than failure.
func absent(err error) bool { return fserr.Absent(err) }

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
