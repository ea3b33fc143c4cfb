package config

import "cmp"

// Azure is Azure OpenAI's provider name (TANDEM_PROVIDER).
const Azure = "azure"

// The variables Azure OpenAI's SDKs and Azure's identity libraries read.
const (
	AzureEndpointEnv     = "AZURE_OPENAI_ENDPOINT"
	AzureKeyEnv          = "AZURE_OPENAI_API_KEY"
	AzureADTokenEnv      = "AZURE_OPENAI_AD_TOKEN"
	OpenAIAPIVersionEnv  = "OPENAI_API_VERSION"
	AzureTenantEnv       = "AZURE_TENANT_ID"
	AzureClientEnv       = "AZURE_CLIENT_ID"
	AzureClientSecretEnv = "AZURE_CLIENT_SECRET"
	AzureAuthorityEnv    = "AZURE_AUTHORITY_HOST"
)

// AzureFile is config.json's keys for Azure OpenAI, flat in the file
// (and in a profile).
type AzureFile struct {
	AzureOpenAIEndpoint string `json:"azureOpenaiEndpoint"`
	AzureOpenAIAPIKey   string `json:"azureOpenaiApiKey"`
	OpenAIAPIVersion    string `json:"openaiApiVersion"`
	AzureTenantID       string `json:"azureTenantId"`
	AzureClientID       string `json:"azureClientId"`
	AzureClientSecret   string `json:"azureClientSecret"`
}

// azureEnvKeys pairs each variable with the config.json key it stands for.
var azureEnvKeys = map[string]string{
	AzureEndpointEnv:     "azureOpenaiEndpoint",
	AzureKeyEnv:          "azureOpenaiApiKey",
	OpenAIAPIVersionEnv:  "openaiApiVersion",
	AzureTenantEnv:       "azureTenantId",
	AzureClientEnv:       "azureClientId",
	AzureClientSecretEnv: "azureClientSecret",
}

// AzureOpenAI is the resolved configuration of the azure provider; the
// model (TANDEM_MODEL) is the deployment's name.
type AzureOpenAI struct {
	Endpoint   string
	APIVersion string // "": the v1 API
	Key        string
	// ADToken is an Entra ID token given as it is; TenantID, ClientID and
	// ClientSecret a service principal to fetch tokens with, from
	// AuthorityHost ("": Entra ID's public cloud).
	ADToken                          string
	TenantID, ClientID, ClientSecret string
	AuthorityHost                    string
}

func loadAzure(getenv func(string) string, f AzureFile, creds Credentials) AzureOpenAI {
	return AzureOpenAI{
		Endpoint:      cmp.Or(getenv(AzureEndpointEnv), f.AzureOpenAIEndpoint),
		APIVersion:    cmp.Or(getenv(OpenAIAPIVersionEnv), f.OpenAIAPIVersion),
		Key:           cmp.Or(getenv(AzureKeyEnv), f.AzureOpenAIAPIKey, creds.AzureOpenAIAPIKey),
		ADToken:       getenv(AzureADTokenEnv),
		TenantID:      cmp.Or(getenv(AzureTenantEnv), f.AzureTenantID),
		ClientID:      cmp.Or(getenv(AzureClientEnv), f.AzureClientID),
		ClientSecret:  cmp.Or(getenv(AzureClientSecretEnv), f.AzureClientSecret),
		AuthorityHost: getenv(AzureAuthorityEnv),
	}
}

// implied is azure for a configuration naming an Azure OpenAI endpoint
// and no other provider: the variable is Azure OpenAI's alone.
func (a AzureOpenAI) implied() string {
	if a.Endpoint != "" {
		return Azure
	}
	return ""
}

// azureSecrets are the Azure keys and tokens of every source.
func azureSecrets(getenv func(string) string, f AzureFile, creds Credentials) []string {
	return []string{getenv(AzureKeyEnv), getenv(AzureADTokenEnv), getenv(AzureClientSecretEnv),
		f.AzureOpenAIAPIKey, f.AzureClientSecret, creds.AzureOpenAIAPIKey}
}
