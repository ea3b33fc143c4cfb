package anthropic_test

import (
	"flag"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

var update = flag.Bool("update", false, "rewrite testdata/*.json from the current output")

func TestRecordedStreams(t *testing.T) {
	llmtest.RunRecorded(t, llmtest.Anthropic, newProvider, "testdata", *update)
}
