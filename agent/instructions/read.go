package instructions

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
)

// read returns the file's bytes, never holding more than maxSrc+1 of them
// whatever the file's metadata claims, and checks ctx between chunks.
func (p *prober) read(ctx context.Context, file string) ([]byte, fs.FileInfo, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	f, err := p.fsys.Open(file)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, errNotFile
	}
	// Size the buffer from fstat, one byte over so EOF is seen without a
	// reallocation; the limit below holds whatever the size claims.
	hint := fi.Size()
	if hint < 0 || hint > p.maxSrc {
		hint = p.maxSrc
	}
	buf := make([]byte, 0, hint+1)
	const chunk = 64 << 10
	for {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		if int64(len(buf)) > p.maxSrc {
			return nil, nil, fmt.Errorf("%w (grew past %d bytes while reading)", errTooLarge, p.maxSrc)
		}
		if len(buf) == cap(buf) {
			grow := min(int64(chunk), p.maxSrc+1-int64(len(buf)))
			buf = append(buf, make([]byte, grow)...)[:len(buf)]
		}
		room := min(int64(cap(buf)), p.maxSrc+1)
		n, err := f.Read(buf[len(buf):room])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, err
		}
	}
	if int64(len(buf)) > p.maxSrc {
		return nil, nil, fmt.Errorf("%w (grew past %d bytes while reading)", errTooLarge, p.maxSrc)
	}
	return buf, fi, nil
}
