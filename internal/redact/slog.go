package redact

import (
	"context"
	"log/slog"
)

// Handler returns a slog.Handler that passes every record's message and
// string-valued attributes (errors and Stringers included) through Text
// before h sees them.
func (r *Redactor) Handler(h slog.Handler) slog.Handler { return &handler{r: r, next: h} }

type handler struct {
	r    *Redactor
	next slog.Handler
}

func (h *handler) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h *handler) Handle(ctx context.Context, rec slog.Record) error {
	out := slog.NewRecord(rec.Time, rec.Level, h.r.Text(rec.Message), rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.attr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

func (h *handler) WithAttrs(as []slog.Attr) slog.Handler {
	clean := make([]slog.Attr, len(as))
	for i, a := range as {
		clean[i] = h.attr(a)
	}
	return &handler{r: h.r, next: h.next.WithAttrs(clean)}
}

func (h *handler) WithGroup(name string) slog.Handler {
	return &handler{r: h.r, next: h.next.WithGroup(name)}
}

// attr redacts one attribute: strings, errors and Stringers become
// redacted strings, groups are walked, numbers and times pass.
func (h *handler) attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, h.r.Text(v.String()))
	case slog.KindGroup:
		g := v.Group()
		clean := make([]any, len(g))
		for i, x := range g {
			clean[i] = h.attr(x)
		}
		return slog.Group(a.Key, clean...)
	case slog.KindAny:
		switch x := v.Any().(type) {
		case error:
			return slog.String(a.Key, h.r.Text(x.Error()))
		case interface{ String() string }:
			return slog.String(a.Key, h.r.Text(x.String()))
		}
		return slog.String(a.Key, h.r.Text(v.String()))
	}
	return slog.Attr{Key: a.Key, Value: v}
}
