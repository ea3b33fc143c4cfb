package bedrock_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/bedrock"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// newProvider is the suite's constructor: the key is the secret access
// key of the fake's access key id, signed for by the SDK's signer.
func newProvider(c llmtest.ProviderConfig) llm.Provider {
	return bedrock.New(bedrock.Options{
		Transport:   c.Transport,
		Region:      llmtest.AWSRegion,
		Endpoint:    c.BaseURL,
		Credentials: credentials.NewStaticCredentialsProvider(llmtest.AWSAccessKeyID, c.APIKey, ""),
	})
}

func TestConformance(t *testing.T) {
	llmtest.RunProviderTests(t, llmtest.Bedrock, newProvider)
}
