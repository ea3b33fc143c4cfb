package mcp

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"

	"github.com/tandemhq/tandem/agent/tools"
)

// Model-facing names of the resource tools.
const (
	ListResourcesName = "list_mcp_resources"
	ReadResourceName  = "read_mcp_resource"
)

//go:embed list_mcp_resources.md
var listResourcesDoc string

//go:embed read_mcp_resource.md
var readResourceDoc string

type listResourcesArgs struct {
	Server string `json:"server,omitempty" jsonschema:"Only this MCP server's resources. Omit for every server's."`
}

type readResourceArgs struct {
	Server string `json:"server,omitempty" jsonschema:"The MCP server that lists the resource. Omit to ask every server."`
	URI    string `json:"uri" jsonschema:"The resource's URI, as list_mcp_resources gives it."`
}

// ResourceTools returns the tools that list and read the resources of a
// session's MCP servers; managers returns the session's current managers.
// Resources are read-only by protocol, so the tools are in the read group.
func ResourceTools(managers func() []*Manager) []tools.Tool {
	list := tools.New(tools.Spec[listResourcesArgs]{Name: ListResourcesName, Group: tools.GroupRead, Kind: tools.KindRead,
		Doc: listResourcesDoc,
		Run: func(ctx context.Context, _ *tools.Env, a listResourcesArgs) (tools.Result, error) {
			return listResources(ctx, managers(), a.Server)
		},
		Describe: func(string, listResourcesArgs) tools.Preview { return tools.Preview{Title: "List MCP resources"} },
	})
	read := tools.New(tools.Spec[readResourceArgs]{Name: ReadResourceName, Group: tools.GroupRead, Kind: tools.KindRead,
		Doc: readResourceDoc,
		Run: func(ctx context.Context, _ *tools.Env, a readResourceArgs) (tools.Result, error) {
			return readResource(ctx, managers(), a.Server, a.URI)
		},
		Describe: func(_ string, a readResourceArgs) tools.Preview { return tools.Preview{Title: "Read " + a.URI} },
	})
	return []tools.Tool{list, read}
}

func listResources(ctx context.Context, ms []*Manager, server string) (tools.Result, error) {
	var b strings.Builder
	for _, m := range ms {
		list, err := m.Resources(ctx, server)
		if err != nil {
			if ctx.Err() != nil {
				return tools.Result{}, ctx.Err()
			}
			return tools.Result{Output: err.Error(), IsError: true}, nil
		}
		for _, r := range list {
			fmt.Fprintf(&b, "%s  (server %s", r.URI, r.Server)
			if r.MIMEType != "" {
				fmt.Fprintf(&b, ", %s", r.MIMEType)
			}
			b.WriteString(")")
			if r.Name != "" {
				fmt.Fprintf(&b, " %s", r.Name)
			}
			if r.Description != "" {
				fmt.Fprintf(&b, ": %s", r.Description)
			}
			b.WriteString("\n")
		}
	}
	if b.Len() == 0 {
		return tools.Result{Output: "No MCP server of this session lists any resources."}, nil
	}
	return tools.Result{Output: capOutput(b.String())}, nil
}

func readResource(ctx context.Context, ms []*Manager, server, uri string) (tools.Result, error) {
	var errs []error
	for _, m := range ms {
		text, err := m.ReadResource(ctx, server, uri)
		if err == nil {
			return tools.Result{Output: text}, nil
		}
		if ctx.Err() != nil {
			return tools.Result{}, ctx.Err()
		}
		if !errors.Is(err, ErrNoResources) {
			errs = append(errs, err)
		}
	}
	if len(errs) == 0 {
		return tools.Result{Output: ErrNoResources.Error(), IsError: true}, nil
	}
	return tools.Result{Output: fmt.Sprintf("cannot read %s: %v", uri, errors.Join(errs...)), IsError: true}, nil
}
