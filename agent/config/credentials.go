package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/tandemhq/tandem/internal/atomicfile"
)

// CredentialsFile holds the keys `tandem login` stored, in $TANDEM_HOME.
// It is written with mode 0600 and refused when others can read it: a key
// in a world-readable file is as good as leaked, and using it anyway would
// hide that.
const CredentialsFile = "credentials.json"

// Credentials is the shape of CredentialsFile.
type Credentials struct {
	AnthropicAPIKey string `json:"anthropicApiKey,omitempty"`
	OpenAIAPIKey    string `json:"openaiApiKey,omitempty"`
	GeminiAPIKey    string `json:"geminiApiKey,omitempty"`
	// AzureOpenAIAPIKey is an Azure OpenAI resource's key.
	AzureOpenAIAPIKey string `json:"azureOpenaiApiKey,omitempty"`
}

// LoadCredentials reads home's credentials file; a missing file is empty.
func LoadCredentials(home string) (Credentials, error) {
	var c Credentials
	path := filepath.Join(home, CredentialsFile)
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("config: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return c, fmt.Errorf("config: %w", err)
	}
	if st.Mode().Perm()&0o077 != 0 {
		return c, fmt.Errorf("config: %s is readable by other users (mode %v): run chmod 600 on it, or tandem login again", path, st.Mode().Perm())
	}
	if err := json.NewDecoder(f).Decode(&c); err != nil {
		return c, fmt.Errorf("config: %s is not valid: %w", path, err)
	}
	return c, nil
}

// SaveKey stores key for provider ("anthropic", "openai", "gemini" or "azure") in home's
// credentials file, keeping the other provider's key.
func SaveKey(home, provider, key string) error {
	path := filepath.Join(home, CredentialsFile)
	c, err := LoadCredentials(home)
	if err != nil {
		// An unreadable, invalid or too-open file is replaced, not merged;
		// removed first, since a replaced file keeps its mode.
		c = Credentials{}
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("config: %w", err)
		}
	}
	switch provider {
	case "anthropic":
		c.AnthropicAPIKey = key
	case "openai":
		c.OpenAIAPIKey = key
	case Gemini:
		c.GeminiAPIKey = key
	case Azure:
		c.AzureOpenAIAPIKey = key
	default:
		return fmt.Errorf("config: unknown provider %q: use anthropic, openai, gemini or azure", provider)
	}
	if err := os.MkdirAll(home, 0o700); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(path, append(b, '\n'), 0o600)
}

// RemoveCredentials deletes home's credentials file, the keys `tandem
// login` stored; keys in the environment or config.json are the user's to
// remove and stay. A missing file is already logged out.
func RemoveCredentials(home string) error {
	if home == "" {
		// A relative path would remove a file in the working directory.
		return errors.New("config: no TANDEM_HOME to log out of")
	}
	if err := os.Remove(filepath.Join(home, CredentialsFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("config: %w", err)
	}
	return nil
}
