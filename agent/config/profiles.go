package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Profile is one more provider in config.json's "profiles", by name:
//
//	"profiles": {
//	  "gemini": {"provider": "gemini", "models": ["gemini-2.5-pro", "gemini-2.5-flash"], "modelPrefixes": ["gemini-"]},
//	  "claude-on-vertex": {"provider": "vertex", "googleCloudLocation": "us-east5", "models": ["claude-sonnet-4-5@20250929"]}
//	}
//
// A profile takes the same provider keys as the top level (provider,
// model, models, each provider's keys and URLs), and modelPrefixes. What
// it leaves out comes from the environment, then from the top level of the
// file: keys and projects are shared, and a profile only names what
// differs. A key a profile sets wins over the variable standing for it
// (googleCloudLocation over GOOGLE_CLOUD_LOCATION), and TANDEM_PROVIDER,
// TANDEM_MODEL and TANDEM_OPENAI_API are the default provider's only.
//
// A session's model picks the provider (Config.Route): every profile's
// models are offered beside the default's, so choosing one in the editor's
// model picker switches the session to that profile's provider.
type Profile struct {
	Name string
	// Prefixes are model id prefixes the profile serves beyond the models
	// it lists ("gemini-" for any Gemini model typed in).
	Prefixes []string
	// Config is the profile resolved as a whole configuration: Provider,
	// Model, Models, the provider's credentials and Secrets.
	Config Config
}

// coreEnvKeys pairs the Anthropic and OpenAI variables with their keys;
// each provider's file has a table of its own (googleEnvKeys).
var coreEnvKeys = map[string]string{
	AnthropicKeyEnv:      "anthropicApiKey",
	"ANTHROPIC_BASE_URL": "anthropicBaseUrl",
	OpenAIKeyEnv:         "openaiApiKey",
	"OPENAI_BASE_URL":    "openaiBaseUrl",
}

// providerEnvKeys are the tables of every provider. A provider added to
// tandem adds its table here, which also allows its keys in a profile.
func providerEnvKeys() []map[string]string {
	return []map[string]string{coreEnvKeys, googleEnvKeys, awsEnvKeys, azureEnvKeys}
}

// profileKeys are the keys a profile may set.
func profileKeys() map[string]bool {
	keys := map[string]bool{"provider": true, "model": true, "models": true, "modelPrefixes": true, "openaiApi": true}
	for _, t := range providerEnvKeys() {
		for _, k := range t {
			keys[k] = true
		}
	}
	return keys
}

// selectionEnv are the variables that choose the default provider; a
// profile never reads them.
var selectionEnv = []string{"TANDEM_PROVIDER", "TANDEM_MODEL", "TANDEM_OPENAI_API"}

func loadProfiles(getenv func(string) string, f File, creds Credentials, path string) ([]Profile, error) {
	names := make([]string, 0, len(f.Profiles))
	for name := range f.Profiles {
		names = append(names, name)
	}
	sort.Strings(names)
	allowed := profileKeys()
	var out []Profile
	for _, name := range names {
		raw := f.Profiles[name]
		var keys map[string]json.RawMessage
		if err := json.Unmarshal(raw, &keys); err != nil || keys == nil {
			return nil, fmt.Errorf("config: %s: profile %q is not an object", path, name)
		}
		for k := range keys {
			if !allowed[k] {
				return nil, fmt.Errorf("config: %s: profile %q: %q is not a profile key (a profile sets provider, model, models, modelPrefixes and the provider's keys)", path, name, k)
			}
		}
		if _, ok := keys["provider"]; !ok {
			return nil, fmt.Errorf("config: %s: profile %q names no provider", path, name)
		}
		pf := struct {
			File
			ModelPrefixes []string `json:"modelPrefixes"`
		}{File: f}
		// The profile's keys over the top level's; the selection is its own.
		pf.Provider, pf.Model, pf.Models, pf.OpenAIAPI = "", "", nil, ""
		dec := json.NewDecoder(bytes.NewReader(raw))
		if err := dec.Decode(&pf); err != nil {
			return nil, fmt.Errorf("config: %s: profile %q: %w", path, name, err)
		}
		if pf.Model == "" && len(pf.Models) > 0 {
			pf.Model = pf.Models[0] // a profile's list without a default: its first
		}
		var pc Config
		if err := pc.resolveProvider(profileEnv(getenv, keys), pf.File, creds); err != nil {
			return nil, fmt.Errorf("%w (in profile %q)", err, name)
		}
		if pc.Provider == "" {
			return nil, fmt.Errorf("config: %s: profile %q names no provider", path, name)
		}
		pc.Secrets = pc.inUseSecrets()
		out = append(out, Profile{Name: name, Prefixes: pf.ModelPrefixes, Config: pc})
	}
	return out, nil
}

// profileEnv is the environment a profile reads: without the default
// provider's selection, and without the variables standing for keys the
// profile sets itself.
func profileEnv(getenv func(string) string, set map[string]json.RawMessage) func(string) string {
	return func(name string) string {
		if slices.Contains(selectionEnv, name) {
			return ""
		}
		for _, t := range providerEnvKeys() {
			if k, ok := t[name]; ok {
				if _, mine := set[k]; mine {
					return ""
				}
			}
		}
		return getenv(name)
	}
}

// inUseSecrets are the credentials a resolved provider configuration uses.
func (c *Config) inUseSecrets() []string {
	return secretsOf([]string{c.AnthropicKey, c.OpenAIKey, c.Google.GeminiKey, c.Azure.Key, c.Azure.ADToken, c.Azure.ClientSecret},
		c.AnthropicBaseURL, c.OpenAIBaseURL, c.Google.GeminiBaseURL, c.Google.VertexBaseURL)
}

// Route returns the configuration whose provider serves model, and the
// profile's name ("" for the default): the default when it lists the
// model; else a profile listing it (by name order); else the profile with
// the longest prefix of it; else the default, which gets every model no
// profile claims.
func (c Config) Route(model string) (Config, string) {
	if model == "" || slices.Contains(c.ownModels, model) {
		return c, ""
	}
	for _, p := range c.Profiles {
		if slices.Contains(p.Config.Models, model) {
			return p.Config, p.Name
		}
	}
	best, bestLen := -1, 0
	for i, p := range c.Profiles {
		for _, pre := range p.Prefixes {
			if pre != "" && strings.HasPrefix(model, pre) && len(pre) > bestLen {
				best, bestLen = i, len(pre)
			}
		}
	}
	if best >= 0 {
		return c.Profiles[best].Config, c.Profiles[best].Name
	}
	return c, ""
}

// allModels is the default provider's models, then each profile's, once
// each. A model two providers list stays the first's.
func (c *Config) allModels() []string {
	c.ownModels = c.Models
	all := slices.Clone(c.Models)
	for _, p := range c.Profiles {
		all = append(all, p.Config.Models...)
	}
	return dedupe(all)
}
