package azure

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// deploymentsVersion is the api-version of the data plane's deployment
// listing: later versions dropped the route (it moved to Azure Resource
// Manager, which needs a subscription and resource group tandem is not
// told), while this one still answers with a resource's key or token.
const deploymentsVersion = "2022-12-01"

// Deployment is one deployment of a resource: the name requests use as
// their model, and the model it serves ("gpt-4o", "gpt-5").
type Deployment struct {
	ID    string
	Model string
}

// List returns the resource's deployments that are ready to answer
// (GET {endpoint}/openai/deployments), for the model picker: on Azure
// the model a request names is a deployment. Its error names the status
// and Azure's message, never the credential.
func List(ctx context.Context, opts Options) ([]Deployment, error) {
	endpoint, auth, err := opts.resource()
	if err != nil {
		return nil, err
	}
	client := opts.HTTPClient
	if client == nil {
		client = http.DefaultClient
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, endpoint+"/openai/deployments?api-version="+deploymentsVersion, nil)
	if err != nil {
		return nil, fmt.Errorf("azure: %w", err)
	}
	secret, err := auth(ctx, req.Header)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("azure: listing deployments: %w", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return nil, fmt.Errorf("azure: listing deployments: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Error struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		_ = json.Unmarshal(b, &e)
		msg := e.Error.Message
		if secret != "" {
			msg = strings.ReplaceAll(msg, secret, "[redacted]")
		}
		if len(msg) > 200 {
			msg = msg[:200] + "…"
		}
		return nil, fmt.Errorf("azure: listing deployments: HTTP %d %s", resp.StatusCode, msg)
	}
	var body struct {
		Data []struct {
			ID     string `json:"id"`
			Model  string `json:"model"`
			Status string `json:"status"`
		} `json:"data"`
	}
	if err := json.Unmarshal(b, &body); err != nil {
		return nil, fmt.Errorf("azure: listing deployments: bad JSON: %w", err)
	}
	var out []Deployment
	for _, d := range body.Data {
		if d.ID != "" && (d.Status == "" || d.Status == "succeeded") {
			out = append(out, Deployment{ID: d.ID, Model: d.Model})
		}
	}
	return out, nil
}
