package main

import (
	"context"
	"errors"
)

func runLSP(ctx context.Context, m *Main, args []string) error {
	return errors.New("not built yet")
}
