package tools

import (
	"context"
	_ "embed"
	"strings"

	"github.com/tandemhq/tandem/codeindex"
)

// RepoMapName is the model-facing name of the repository map tool.
const RepoMapName = "repo_map"

//go:embed repo_map.md
var repoMapDescription string

type repoMapArgs struct {
	Focus []string `json:"focus,omitempty" jsonschema:"Files or directories, relative to the workspace root (absolute in an additional root), the ranking should favour."`
}

// NewRepoMap returns the repo_map tool.
func NewRepoMap() Tool {
	return New(Spec[repoMapArgs]{
		Name: RepoMapName, Group: GroupRead, Kind: KindSearch,
		Doc: strings.TrimSpace(repoMapDescription),
		Run: runRepoMap, Describe: describeRepoMap,
	})
}

func describeRepoMap(root string, p repoMapArgs) Preview {
	if len(p.Focus) == 0 {
		return Preview{Title: "Map the repository"}
	}
	return Preview{Title: "Map the repository around " + strings.Join(p.Focus, ", ")}
}

func runRepoMap(ctx context.Context, env *Env, p repoMapArgs) (Result, error) {
	var focus []string
	for _, f := range p.Focus {
		abs, err := env.Resolve(f)
		if err != nil {
			return failureErr(err), nil
		}
		focus = append(focus, abs)
	}
	// A root whose index the session has not built yet gets a throwaway one.
	ixs := append([]*codeindex.Index{env.Index}, env.RootIndexes...)
	ixs = append(ixs, make([]*codeindex.Index, 1+len(env.Roots)-len(ixs))...)
	for i, root := range append([]string{env.Root}, env.Roots...) {
		if ixs[i] != nil {
			continue
		}
		ix, err := codeindex.Open(ctx, root, codeindex.Options{})
		if err != nil {
			if ctx.Err() != nil {
				return Result{}, ctx.Err()
			}
			return failureErr(err), nil
		}
		ixs[i] = ix
	}
	m, err := codeindex.MapRoots(ctx, MapParts(env.Root, env.Roots, ixs), codeindex.MapOptions{Focus: focus, Hidden: env.Hidden})
	if ctx.Err() != nil {
		return Result{}, ctx.Err()
	}
	if err != nil && m == "" {
		return failureErr(err), nil
	}
	if m == "" {
		return Result{Output: "No definitions found: the workspace has no source files tandem can parse."}, nil
	}
	return Result{Output: RepoMapHeader + "\n" + m}, nil
}

// RepoMapHeader introduces a repository map, in the tool's output and in
// a session's first request.
const RepoMapHeader = "Repository map: source files ranked by how much of the rest of the code uses them, " +
	"each with its most used definitions as `line | signature` (lines are 1-based, for read_file)."
