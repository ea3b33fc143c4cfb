package main

import (
	"io"
	"os"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/internal/redact"
)

// redactor is the process's one redactor, built on first use: it knows the
// secret-looking values of the environment and every key of the
// configuration (the environment's, config.json's, the stored ones,
// credentials in base URLs). The log, stderr and the agent all use it, so
// what one of them hides the others hide too. A configuration that fails
// to load still gives the keys read before the failure.
func (m *Main) redactor() *redact.Redactor {
	m.redactOnce.Do(func() {
		cfg, _ := config.Load(m.Getenv) // a broken config is reported by whoever loads it next
		m.red = redact.FromEnv(os.Environ(), cfg.Secrets...)
	})
	return m.red
}

// redacted is w with every write passed through the redactor's Text. The
// writers it wraps get whole lines per write (slog's records, one Fprintf
// each), so a secret is never split across two writes.
func (m *Main) redacted(w io.Writer) io.Writer { return redactedWriter{m: m, w: w} }

type redactedWriter struct {
	m *Main
	w io.Writer
}

func (r redactedWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(r.w, r.m.redactor().Text(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
