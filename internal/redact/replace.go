package redact

import "unsafe"

// replace is t.known.Replace(s) without its copies when nothing matches,
// which is nearly always: strings.Replacer with several patterns copies s
// into a new buffer and that into a new string even then, and the update
// path redacts every tool result and log record, so a step's few KB of
// text were copied twice more for nothing. The replacer writes s as one
// piece exactly when it replaces nothing; only then is the output s.
func (t *table) replace(s string) string {
	w := pieces{in: s}
	_, _ = t.known.WriteString(&w, s) // pieces never fails
	switch w.n {
	case 0:
		return ""
	case 1:
		return w.first
	}
	return string(w.buf)
}

// replaceBytes is replace for encoded data: b itself when nothing
// matches. The string it reads b as is gone when it returns, and b is
// not written meanwhile, so no copy of b is made.
func (t *table) replaceBytes(b []byte) []byte {
	s := unsafe.String(unsafe.SliceData(b), len(b))
	out := t.replace(s)
	if len(out) == len(s) && unsafe.StringData(out) == unsafe.StringData(s) {
		return b
	}
	return []byte(out)
}

// pieces gathers what a Replacer writes: the first piece as it is, and
// only from a second piece on (a replacement was made) a copy of them all.
type pieces struct {
	in    string
	first string
	buf   []byte
	n     int
}

func (w *pieces) WriteString(p string) (int, error) {
	switch w.n {
	case 0:
		w.first = p
	case 1:
		w.buf = append(append(make([]byte, 0, len(w.in)+len(p)), w.first...), p...)
	default:
		w.buf = append(w.buf, p...)
	}
	w.n++
	return len(p), nil
}

// Write is WriteString for a Replacer that writes bytes.
func (w *pieces) Write(p []byte) (int, error) { return w.WriteString(string(p)) }
