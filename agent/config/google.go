package config

import "cmp"

// The provider names of Google's two APIs (TANDEM_PROVIDER).
const (
	Gemini = "gemini" // the Gemini API, with an API key
	Vertex = "vertex" // Vertex AI, with Google Cloud credentials
)

// DefaultGeminiModel is used for gemini and vertex when no model is set.
const DefaultGeminiModel = "gemini-2.5-pro"

// The variables Google's own tools and SDKs read (gemini-cli, the Google
// Gen AI SDKs, gcloud's application-default credentials).
const (
	GeminiKeyEnv          = "GEMINI_API_KEY"
	GoogleKeyEnv          = "GOOGLE_API_KEY"
	GeminiBaseURLEnv      = "GOOGLE_GEMINI_BASE_URL"
	GoogleProjectEnv      = "GOOGLE_CLOUD_PROJECT"
	GoogleLocationEnv     = "GOOGLE_CLOUD_LOCATION"
	GoogleCredentialsEnv  = "GOOGLE_APPLICATION_CREDENTIALS"
	VertexBaseURLEnv      = "GOOGLE_VERTEX_BASE_URL"
	DefaultVertexLocation = "global"
)

// GoogleFile is config.json's keys for Gemini and Vertex, flat in the
// file beside the other providers' (and in a profile).
type GoogleFile struct {
	GeminiAPIKey       string `json:"geminiApiKey"`
	GeminiBaseURL      string `json:"geminiBaseUrl"`
	GoogleCloudProject string `json:"googleCloudProject"`
	// GoogleCloudLocation is a Vertex region ("us-east5") or "global".
	GoogleCloudLocation string `json:"googleCloudLocation"`
	// GoogleCredentials is the path of a credentials file (a service
	// account's key, or an authorized user's), as
	// GOOGLE_APPLICATION_CREDENTIALS names one.
	GoogleCredentials string `json:"googleApplicationCredentials"`
	VertexBaseURL     string `json:"vertexBaseUrl"`
}

// googleEnvKeys pairs each variable with the config.json key it stands for
// (a profile that sets the key hides the variable, profiles.go).
var googleEnvKeys = map[string]string{
	GeminiKeyEnv:         "geminiApiKey",
	GoogleKeyEnv:         "geminiApiKey",
	GeminiBaseURLEnv:     "geminiBaseUrl",
	GoogleProjectEnv:     "googleCloudProject",
	GoogleLocationEnv:    "googleCloudLocation",
	GoogleCredentialsEnv: "googleApplicationCredentials",
	VertexBaseURLEnv:     "vertexBaseUrl",
}

// Google is the resolved configuration of the gemini and vertex providers.
type Google struct {
	// GeminiKey is the Gemini API key; GeminiKeyEnv names where it came
	// from (GEMINI_API_KEY or GOOGLE_API_KEY), for 401 errors.
	GeminiKey     string
	GeminiKeyEnv  string
	GeminiBaseURL string // "": Google's own

	// Project and Location place Vertex requests; an empty project is
	// taken from the credentials when they name one.
	Project  string
	Location string
	// CredentialsFile is a credentials JSON file; "" uses the
	// application-default credentials (gcloud's login, the metadata server).
	CredentialsFile string
	VertexBaseURL   string // "": the location's own endpoint
}

func loadGoogle(getenv func(string) string, f GoogleFile, creds Credentials) Google {
	g := Google{
		GeminiBaseURL:   cmp.Or(getenv(GeminiBaseURLEnv), f.GeminiBaseURL),
		Project:         cmp.Or(getenv(GoogleProjectEnv), f.GoogleCloudProject),
		Location:        cmp.Or(getenv(GoogleLocationEnv), f.GoogleCloudLocation, DefaultVertexLocation),
		CredentialsFile: cmp.Or(getenv(GoogleCredentialsEnv), f.GoogleCredentials),
		VertexBaseURL:   cmp.Or(getenv(VertexBaseURLEnv), f.VertexBaseURL),
	}
	// GEMINI_API_KEY first, as the Gen AI SDKs read them.
	for _, env := range []string{GeminiKeyEnv, GoogleKeyEnv} {
		if v := getenv(env); v != "" {
			g.GeminiKey, g.GeminiKeyEnv = v, env
			return g
		}
	}
	g.GeminiKey, g.GeminiKeyEnv = cmp.Or(f.GeminiAPIKey, creds.GeminiAPIKey), GeminiKeyEnv
	return g
}

// implied is the provider a configuration with no TANDEM_PROVIDER and no
// Anthropic or OpenAI key gets: gemini for a GEMINI_API_KEY. Vertex is
// never guessed: GOOGLE_CLOUD_PROJECT is set for much else than models,
// and GOOGLE_API_KEY names keys for every Google API.
func (g Google) implied() string {
	if g.GeminiKey != "" && g.GeminiKeyEnv == GeminiKeyEnv {
		return Gemini
	}
	return ""
}

// googleSecrets are the Google keys of every source, for the redactor.
// Access tokens Vertex gets at run time are learned when fetched.
func googleSecrets(getenv func(string) string, f GoogleFile, creds Credentials) []string {
	return secretsOf([]string{getenv(GeminiKeyEnv), getenv(GoogleKeyEnv), f.GeminiAPIKey, creds.GeminiAPIKey},
		getenv(GeminiBaseURLEnv), getenv(VertexBaseURLEnv), f.GeminiBaseURL, f.VertexBaseURL)
}
