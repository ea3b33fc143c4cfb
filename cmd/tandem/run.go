package main

import (
	"context"
	"errors"
)

func runRun(ctx context.Context, m *Main, args []string) error {
	return errors.New("not built yet")
}
