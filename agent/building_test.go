package agent

import (
	"context"
	"errors"
	"testing"
	"time"
)

// WhenBuilt runs its function once the agent is built, at once when it
// already is, and never after a failed build.
func TestWhenBuilt(t *testing.T) {
	release := make(chan struct{})
	a := New(Config{Home: t.TempDir()})
	t.Cleanup(func() { a.Close(context.Background()) })
	b := Build(func() (*Agent, error) { <-release; return a, nil })
	got := make(chan *Agent, 2)
	b.WhenBuilt(func(x *Agent) { got <- x })
	select {
	case <-got:
		t.Fatal("WhenBuilt ran before the agent was built")
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	if x := <-got; x != a {
		t.Fatalf("WhenBuilt got %p, want the built agent %p", x, a)
	}
	if _, err := b.Agent(context.Background()); err != nil {
		t.Fatal(err)
	}
	b.WhenBuilt(func(x *Agent) { got <- x })
	select {
	case x := <-got:
		if x != a {
			t.Fatalf("WhenBuilt got %p, want %p", x, a)
		}
	default:
		t.Fatal("WhenBuilt on a built agent did not run at once")
	}

	failed := Build(func() (*Agent, error) { return nil, errors.New("no") })
	failed.Agent(context.Background())
	failed.WhenBuilt(func(*Agent) { t.Error("WhenBuilt ran after a failed build") })
}

// Watch ends the context it watches when the build fails, and reports the
// build's error as the reason; a build that succeeds, or a context that
// ends first, leaves no reason.
func TestWatch(t *testing.T) {
	broken := errors.New("config.json: not JSON")
	release := make(chan struct{})
	b := Build(func() (*Agent, error) { <-release; return nil, broken })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	reason := b.Watch(ctx, nil, cancel)
	close(release)
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("a failed build did not end the watched context")
	}
	if err := reason(); !errors.Is(err, broken) {
		t.Fatalf("reason is %v, want the build's error", err)
	}

	held := make(chan struct{})
	defer close(held)
	pending := Build(func() (*Agent, error) { <-held; return nil, broken })
	ctx2, cancel2 := context.WithCancel(context.Background())
	reason2 := pending.Watch(ctx2, nil, cancel2)
	cancel2()
	if err := reason2(); err != nil {
		t.Fatalf("reason after the context ended first is %v, want none", err)
	}
}
