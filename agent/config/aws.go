package config

import "cmp"

// Bedrock is Amazon Bedrock's provider name (TANDEM_PROVIDER).
const Bedrock = "bedrock"

// DefaultBedrockModel is used for bedrock when no model is set: Claude
// Sonnet 4.5 through its global inference profile, which every commercial
// region serves.
const DefaultBedrockModel = "global.anthropic.claude-sonnet-4-5-20250929-v1:0"

// The variables the AWS SDKs and CLI read. The credentials themselves
// (AWS_ACCESS_KEY_ID…, profiles, SSO, instance roles) are read by the
// SDK's own chain; tandem names only what places the requests.
const (
	AWSProfileEnv         = "AWS_PROFILE"
	AWSRegionEnv          = "AWS_REGION"
	AWSDefaultRegionEnv   = "AWS_DEFAULT_REGION"
	AWSBedrockEndpointEnv = "AWS_ENDPOINT_URL_BEDROCK_RUNTIME"
	AWSEndpointEnv        = "AWS_ENDPOINT_URL"
	// AWSBedrockControlEnv places Bedrock's control plane (where its
	// models are listed), as the SDK's bedrock client reads it.
	AWSBedrockControlEnv = "AWS_ENDPOINT_URL_BEDROCK"
	AWSSecretKeyEnv      = "AWS_SECRET_ACCESS_KEY"
	AWSSessionTokenEnv   = "AWS_SESSION_TOKEN"
)

// AWSFile is config.json's keys for Bedrock, flat in the file (and in a
// profile).
type AWSFile struct {
	AWSProfile      string `json:"awsProfile"`
	AWSRegion       string `json:"awsRegion"`
	BedrockEndpoint string `json:"bedrockEndpoint"`
}

// awsEnvKeys pairs each variable with the config.json key it stands for.
var awsEnvKeys = map[string]string{
	AWSProfileEnv:         "awsProfile",
	AWSRegionEnv:          "awsRegion",
	AWSDefaultRegionEnv:   "awsRegion",
	AWSBedrockEndpointEnv: "bedrockEndpoint",
	AWSEndpointEnv:        "bedrockEndpoint",
}

// AWS is the resolved configuration of the bedrock provider. Empty fields
// are left to the SDK's shared config (the profile's region).
type AWS struct {
	Profile  string
	Region   string
	Endpoint string // "": the region's bedrock-runtime endpoint
	// ControlEndpoint is where the models are listed ("": the region's
	// bedrock endpoint). A runtime endpoint of its own does not move it.
	ControlEndpoint string
}

func loadAWS(getenv func(string) string, f AWSFile) AWS {
	return AWS{
		Profile:  cmp.Or(getenv(AWSProfileEnv), f.AWSProfile),
		Region:   cmp.Or(getenv(AWSRegionEnv), getenv(AWSDefaultRegionEnv), f.AWSRegion),
		Endpoint: cmp.Or(getenv(AWSBedrockEndpointEnv), getenv(AWSEndpointEnv), f.BedrockEndpoint),

		ControlEndpoint: cmp.Or(getenv(AWSBedrockControlEnv), getenv(AWSEndpointEnv)),
	}
}

// awsSecrets are the AWS credentials in the environment, for the
// redactor. Credentials the SDK finds elsewhere (profiles, SSO, roles)
// are scrubbed from provider errors by the provider itself.
func awsSecrets(getenv func(string) string) []string {
	return []string{getenv(AWSSecretKeyEnv), getenv(AWSSessionTokenEnv)}
}
