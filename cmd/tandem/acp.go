package main

import (
	"context"
	"errors"
)

func runACP(ctx context.Context, m *Main, args []string) error {
	return errors.New("not built yet")
}
