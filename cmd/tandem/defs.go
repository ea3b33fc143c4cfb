package main

import (
	"context"
	"errors"
)

func runDefs(ctx context.Context, m *Main, args []string) error {
	return errors.New("not built yet")
}
