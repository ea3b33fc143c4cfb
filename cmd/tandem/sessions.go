package main

import (
	"context"
	"errors"
)

func runSessions(ctx context.Context, m *Main, args []string) error {
	return errors.New("not built yet")
}
