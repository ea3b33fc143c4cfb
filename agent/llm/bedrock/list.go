package bedrock

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// DefaultControlEndpoint is the control plane of region: where Bedrock
// lists its models and inference profiles (the runtime only runs them).
func DefaultControlEndpoint(region string) string {
	return "https://bedrock." + region + ".amazonaws.com"
}

// List returns the model ids a user can send Converse requests to, for
// the model picker: the active inference profiles first
// (ListInferenceProfiles: "us.anthropic.claude-sonnet-4-…", the only way
// to invoke the newer Claude models), then the active foundation models
// that answer in text on demand by their own id (ListFoundationModels;
// those served through profiles only, embedding and legacy models are
// left out). The requests are SigV4-signed like the runtime's. It fails
// only when both listings do.
func (p *Provider) List(ctx context.Context) ([]string, error) {
	if p.opts.Region == "" || p.opts.Credentials == nil {
		return nil, fmt.Errorf("bedrock: no AWS region or credentials to list models with")
	}
	creds, err := p.opts.Credentials.Retrieve(ctx)
	if err != nil {
		return nil, fmt.Errorf("bedrock: no AWS credentials: %w", err)
	}
	if p.opts.Learn != nil {
		p.opts.Learn(creds.SecretAccessKey, creds.SessionToken)
	}
	c := signingClient(p.opts.HTTPClient, &sigV4{signer: p.signer, creds: creds, region: p.opts.Region, accept: "application/json"})
	base := strings.TrimRight(p.opts.ControlEndpoint, "/")
	if base == "" {
		base = DefaultControlEndpoint(p.opts.Region)
	}
	profiles, perr := listProfiles(ctx, c, base)
	found, ferr := listFoundation(ctx, c, base)
	if perr != nil && ferr != nil {
		return nil, fmt.Errorf("bedrock: listing models: %w; %w", perr, ferr)
	}
	out := profiles
	for _, id := range found {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out, nil
}

// listProfiles reads every page of the system-defined inference profiles.
func listProfiles(ctx context.Context, c *http.Client, base string) ([]string, error) {
	var ids []string
	token := ""
	for page := 0; page < 20; page++ {
		q := url.Values{"maxResults": {"1000"}, "type": {"SYSTEM_DEFINED"}}
		if token != "" {
			q.Set("nextToken", token)
		}
		var body struct {
			Summaries []struct {
				ID     string `json:"inferenceProfileId"`
				Status string `json:"status"`
			} `json:"inferenceProfileSummaries"`
			NextToken string `json:"nextToken"`
		}
		if err := getJSON(ctx, c, base+"/inference-profiles?"+q.Encode(), &body); err != nil {
			return nil, err
		}
		for _, s := range body.Summaries {
			if s.ID != "" && s.Status == "ACTIVE" {
				ids = append(ids, s.ID)
			}
		}
		if token = body.NextToken; token == "" {
			break
		}
	}
	return ids, nil
}

// listFoundation reads the foundation models invocable on demand that
// write text. The query asks the service to filter; the answer is checked
// again, as the filters are only hints to a proxy or an older endpoint.
func listFoundation(ctx context.Context, c *http.Client, base string) ([]string, error) {
	var body struct {
		Models []struct {
			ID        string   `json:"modelId"`
			Output    []string `json:"outputModalities"`
			Types     []string `json:"inferenceTypesSupported"`
			Streaming *bool    `json:"responseStreamingSupported"`
			Lifecycle struct {
				Status string `json:"status"`
			} `json:"modelLifecycle"`
		} `json:"modelSummaries"`
	}
	q := url.Values{"byOutputModality": {"TEXT"}, "byInferenceType": {"ON_DEMAND"}}
	if err := getJSON(ctx, c, base+"/foundation-models?"+q.Encode(), &body); err != nil {
		return nil, err
	}
	var ids []string
	for _, m := range body.Models {
		if m.ID == "" || !slices.Contains(m.Output, "TEXT") || !slices.Contains(m.Types, "ON_DEMAND") ||
			(m.Streaming != nil && !*m.Streaming) || (m.Lifecycle.Status != "" && m.Lifecycle.Status != "ACTIVE") {
			continue
		}
		ids = append(ids, m.ID)
	}
	return ids, nil
}

// getJSON reads one listing; its error names the status and Bedrock's
// message, which names no credential (the signature is not echoed).
func getJSON(ctx context.Context, c *http.Client, u string, into any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Message string `json:"message"`
		}
		_ = json.Unmarshal(b, &e)
		return fmt.Errorf("%s: HTTP %d %s", req.URL.Path, resp.StatusCode, clip(e.Message))
	}
	if err := json.Unmarshal(b, into); err != nil {
		return fmt.Errorf("%s: bad JSON: %w", req.URL.Path, err)
	}
	return nil
}

// clip keeps an error message short: a proxy may answer with a page.
func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
