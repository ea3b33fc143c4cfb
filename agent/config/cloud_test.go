package config

import (
	"slices"
	"testing"
)

// Bedrock and Azure read the variables their SDKs name, config.json's
// keys under them, and profiles; their secrets reach the redactor and are
// withheld from commands.
func TestBedrockAndAzure(t *testing.T) {
	c, err := loadFile(t, map[string]string{"TANDEM_PROVIDER": "bedrock", "AWS_PROFILE": "work", "AWS_DEFAULT_REGION": "eu-west-1",
		"AWS_ENDPOINT_URL": "http://aws.local", "AWS_ENDPOINT_URL_BEDROCK_RUNTIME": "http://bedrock.local",
		"AWS_SECRET_ACCESS_KEY": "aws-SECRET-access-key-0123", "AWS_SESSION_TOKEN": "aws-session-TOKEN-0123",
		"AZURE_OPENAI_API_KEY": "azure-env-KEY-0123456", "AZURE_CLIENT_SECRET": "azure-client-SECRET-01"}, `{
		"profiles": {
			"azure": {"provider": "azure", "model": "gpt-5-deployment", "azureOpenaiEndpoint": "https://r.openai.azure.com", "openaiApiVersion": "2025-04-01-preview", "openaiApi": "chat"},
			"bedrock-us": {"provider": "bedrock", "awsRegion": "us-west-2", "models": ["us.anthropic.claude-opus-4-1-20250805-v1:0"]}
		}}`)
	if err != nil {
		t.Fatal(err)
	}
	if c.Provider != Bedrock || c.Model != DefaultBedrockModel || c.AWS != (AWS{Profile: "work", Region: "eu-west-1", Endpoint: "http://bedrock.local", ControlEndpoint: "http://aws.local"}) {
		t.Errorf("default = %s %s %+v", c.Provider, c.Model, c.AWS)
	}
	az, name := c.Route("gpt-5-deployment")
	if name != "azure" || az.Provider != Azure || az.Azure.Endpoint != "https://r.openai.azure.com" || az.Azure.Key != "azure-env-KEY-0123456" ||
		az.Azure.APIVersion != "2025-04-01-preview" || az.OpenAIAPI != OpenAIChat {
		t.Errorf("azure profile = %s %+v %s", name, az.Azure, az.OpenAIAPI)
	}
	us, name := c.Route("us.anthropic.claude-opus-4-1-20250805-v1:0")
	if name != "bedrock-us" || us.AWS.Region != "us-west-2" || us.AWS.Profile != "work" {
		t.Errorf("bedrock profile = %s %+v", name, us.AWS)
	}
	for _, s := range []string{"aws-SECRET-access-key-0123", "aws-session-TOKEN-0123", "azure-env-KEY-0123456", "azure-client-SECRET-01"} {
		if !slices.Contains(c.Secrets, s) {
			t.Errorf("secrets lack %s", s)
		}
	}
	for _, v := range []string{"AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AZURE_OPENAI_API_KEY", "AZURE_OPENAI_AD_TOKEN", "AZURE_CLIENT_SECRET"} {
		if !IsSecretEnv(v) {
			t.Errorf("%s is not withheld", v)
		}
	}
}

// An Azure OpenAI endpoint alone picks azure; the key may come from tandem
// login's store.
func TestAzureImplied(t *testing.T) {
	home := t.TempDir()
	if err := SaveKey(home, Azure, "azure-stored-KEY-0123"); err != nil {
		t.Fatal(err)
	}
	c, err := Load(env(map[string]string{"TANDEM_HOME": home, "AZURE_OPENAI_ENDPOINT": "https://r.openai.azure.com", "TANDEM_MODEL": "dep"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Provider != Azure || c.Azure.Key != "azure-stored-KEY-0123" || c.Model != "dep" {
		t.Errorf("config = %s %+v %s", c.Provider, c.Azure, c.Model)
	}
}
