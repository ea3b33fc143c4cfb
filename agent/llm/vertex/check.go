package vertex

import (
	"cmp"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/gemini"
	"github.com/tandemhq/tandem/internal/redact"
)

// Check gets an access token, which proves the credentials without
// spending any: for tandem doctor.
func (p *Provider) Check(ctx context.Context) (project string, err error) {
	_, project, err = p.creds.token(ctx)
	return project, err
}

// CountTokens asks Vertex to count a one-word prompt for a Gemini model
// (countTokens): a check of the endpoint, the project's access and the
// model that spends no tokens. It returns the count.
func (p *Provider) CountTokens(ctx context.Context, model string) (int, error) {
	tok, _, err := p.creds.token(ctx)
	if err != nil {
		return 0, err
	}
	body := strings.NewReader(`{"contents":[{"role":"user","parts":[{"text":"OK"}]}]}`)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.URL("google", gemini.ModelID(model), "countTokens"), body)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	client := cmp.Or(p.opts.HTTPClient, http.DefaultClient)
	resp, err := client.Do(req)
	if err != nil {
		return 0, &llm.Error{Provider: name, Message: "connection failed: " + redact.New(tok).Text(err.Error()), Err: err}
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode != http.StatusOK {
		e := &llm.Error{Provider: name, Status: resp.StatusCode, Message: redact.New(tok).Text(strings.TrimSpace(string(b)))}
		if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
			e.KeyEnv = config.GoogleCredentialsEnv
		}
		return 0, e
	}
	var v struct {
		TotalTokens int `json:"totalTokens"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return 0, &llm.Error{Provider: name, Message: "countTokens answered " + redact.New(tok).Text(string(b)), Err: err}
	}
	return v.TotalTokens, nil
}
