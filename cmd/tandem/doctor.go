package main

import (
	"context"
	"errors"
)

func runDoctor(ctx context.Context, m *Main, args []string) error {
	return errors.New("not yet")
}
