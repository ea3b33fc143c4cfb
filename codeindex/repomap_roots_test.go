package codeindex

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// bigTree is a repository whose map fills any budget used here.
func bigTree(n int) map[string]string {
	files := map[string]string{}
	for i := range n {
		files[fmt.Sprintf("pkg%d/f.go", i)] = fmt.Sprintf(
			"package p\n\nfunc Func%d(argument string, another int) error { return Func%d(argument, another) }\n", i, (i+1)%n)
	}
	return files
}

// A map over two roots names the second root's files with its prefix,
// after the primary root's, and stays within the budget; a small second
// root leaves what it does not use to the primary root.
func TestMapRootsSplitsTheBudget(t *testing.T) {
	primary, second := t.TempDir(), t.TempDir()
	writeTree(t, primary, bigTree(200))
	writeTree(t, second, mapFixture)
	parts := []MapPart{{Index: open(t, primary, "")}, {Index: open(t, second, ""), Prefix: second + "/"}}
	const tokens = 600
	m, err := MapRoots(context.Background(), parts, MapOptions{Tokens: tokens})
	if err != nil {
		t.Fatal(err)
	}
	if len(m) > tokens*bytesPerToken {
		t.Errorf("%d bytes for a budget of %d tokens", len(m), tokens)
	}
	order := mapOrder(m)
	if !strings.HasPrefix(order[0], "pkg") {
		t.Errorf("the primary root does not come first: %q", order)
	}
	if !strings.Contains(m, second+"/core/store.go\n") {
		t.Errorf("the second root's files are not named with its prefix:\n%s", m)
	}
	primaryPart, secondPart, _ := strings.Cut(m, second+"/")
	if len(secondPart) >= tokens*bytesPerToken/2*3/4 {
		t.Fatalf("the fixture fills its share (%d bytes): the test shows nothing", len(secondPart))
	}
	// What the second root left unused went to the primary root.
	if len(primaryPart) <= tokens*bytesPerToken/2 {
		t.Errorf("the primary root got %d bytes, no more than its half", len(primaryPart))
	}
	// A focus inside the second root ranks that root's files around it.
	focused, err := MapRoots(context.Background(), parts, MapOptions{Tokens: tokens, Focus: []string{second + "/tools/extra.go"}})
	if err != nil {
		t.Fatal(err)
	}
	before(t, mapOrder(focused), second+"/util/leaf.go", second+"/core/store.go")
}
