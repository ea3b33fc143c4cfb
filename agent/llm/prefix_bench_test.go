package llm_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
)

// BenchmarkPrefixCacheLongHistory is a turn's cache work on a history of
// 1000 messages: compare them all, encode the one new message.
func BenchmarkPrefixCacheLongHistory(b *testing.B) {
	answer := strings.Repeat("The handler reads the request, checks it and answers. ", 3)
	var hist []llm.Message
	for i := range 500 {
		hist = append(hist, llm.Text(llm.RoleUser, fmt.Sprintf("question %d about the code", i)), llm.Text(llm.RoleAssistant, answer))
	}
	var c llm.PrefixCache
	msgs := append(hist, llm.Text(llm.RoleUser, "go"))
	for b.Loop() {
		if _, err := c.Encode([]byte("["), msgs, appendText); err != nil {
			b.Fatal(err)
		}
	}
}
