package agent

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm/models"
)

// The provider's model list is not asked for while a front door is still
// answering its first request: not by New, only by StartBackground or the
// first Models call, and an agent closed before either never asks.
func TestModelDiscoveryWaitsForStartBackground(t *testing.T) {
	asked := make(chan struct{}, 1)
	list := func(context.Context) ([]string, error) {
		asked <- struct{}{}
		return []string{"served-1", "served-2"}, nil
	}
	a := New(Config{Models: []string{"configured"}, DiscoverModels: list, Home: t.TempDir()})
	if err := a.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	a.StartBackground() // after Close: nothing starts
	select {
	case <-asked:
		t.Fatal("an agent closed before StartBackground asked the provider for its models")
	default:
	}

	for _, start := range []struct {
		name string
		fn   func(*Agent)
	}{
		{"StartBackground", (*Agent).StartBackground},
		{"Models", func(a *Agent) { a.Models() }},
	} {
		t.Run(start.name, func(t *testing.T) {
			a := New(Config{Models: []string{"configured"}, DiscoverModels: list, Home: t.TempDir()})
			defer a.Close(context.Background())
			start.fn(a)
			start.fn(a) // a second call starts nothing more
			select {
			case <-asked:
			case <-time.After(10 * time.Second):
				t.Fatal("the provider was never asked for its models")
			}
			select { // the background work ends once the list is taken in
			case <-a.backgroundDone:
			case <-time.After(10 * time.Second):
				t.Fatal("the background discovery never ended")
			}
			if !slices.Contains(a.Models(), "served-2") {
				t.Fatalf("Models() = %v, never the discovered ones", a.Models())
			}
			if got := a.Models(); got[0] != "configured" || len(got) != 3 {
				t.Errorf("Models() = %v, want the configured model first, then the two served", got)
			}
			select {
			case <-asked:
				t.Error("the provider was asked twice")
			default:
			}
		})
	}
}

// Close stops a model list still under way and waits for it.
func TestCloseStopsModelDiscovery(t *testing.T) {
	started, stopped := make(chan struct{}), make(chan struct{})
	a := New(Config{Home: t.TempDir(), DiscoverModels: func(ctx context.Context) ([]string, error) {
		close(started)
		<-ctx.Done()
		close(stopped)
		return nil, ctx.Err()
	}})
	a.StartBackground()
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.Close(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case <-stopped:
	default:
		t.Fatal("Close returned while the model list was still running")
	}
}

// The server's context windows are asked for in the agent's background
// work, not by New: a front door's first answer does not wait for them,
// and Close stops a probe still waiting for the server.
func TestWindowProbeRunsInTheBackground(t *testing.T) {
	probed := make(chan struct{}, 1)
	stopped := make(chan error, 1)
	w := &models.Windows{}
	w.Probe = func(ctx context.Context) {
		probed <- struct{}{}
		<-ctx.Done()
		stopped <- ctx.Err()
	}
	a := New(Config{Windows: w, Home: t.TempDir()})
	select {
	case <-probed:
		t.Fatal("New asked the server for its windows")
	case <-time.After(20 * time.Millisecond):
	}
	a.StartBackground()
	select {
	case <-probed:
	case <-time.After(10 * time.Second):
		t.Fatal("StartBackground did not ask the server for its windows")
	}
	if err := a.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-stopped:
		if err == nil {
			t.Fatal("the probe's context ended without an error")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close left the window probe running")
	}
}
