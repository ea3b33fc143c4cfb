package tools

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"strings"

	"github.com/tandemhq/tandem/codeindex"
	"github.com/tandemhq/tandem/treesitter"
)

// ListCodeDefinitionNamesName is the model-facing name of the definitions tool.
const ListCodeDefinitionNamesName = "list_code_definition_names"

// defsMaxLines caps a directory listing; the rest is summarised.
const defsMaxLines = 400

//go:embed list_code_definition_names.md
var listCodeDefinitionNamesDescription string

type listCodeDefinitionNamesArgs struct {
	Path string `json:"path" jsonschema:"Source file or directory, relative to the workspace root (absolute inside an additional root)."`
}

// NewListCodeDefinitionNames returns the list_code_definition_names tool.
// Its description ends with the languages the registry parses, so it never
// disagrees with it.
func NewListCodeDefinitionNames() Tool {
	return New(Spec[listCodeDefinitionNamesArgs]{
		Name: ListCodeDefinitionNamesName, Group: GroupRead, Kind: KindSearch,
		Doc: strings.TrimSpace(listCodeDefinitionNamesDescription) + " " + languageNames() + ".",
		Run: runListCodeDefinitionNames, Describe: describeListCodeDefinitionNames,
	})
}

// languageNames lists what the registry parses, so the description never
// disagrees with it.
func languageNames() string {
	var names []string
	for _, l := range treesitter.Languages() {
		names = append(names, l.Name+" ("+strings.Join(l.Extensions, " ")+")")
	}
	return strings.Join(names, ", ")
}

func describeListCodeDefinitionNames(root string, p listCodeDefinitionNamesArgs) Preview {
	display, abs := previewPath(root, p.Path)
	return Preview{Title: "List definitions in " + display, Locations: previewLocations(abs, 0)}
}

func runListCodeDefinitionNames(ctx context.Context, env *Env, p listCodeDefinitionNamesArgs) (Result, error) {
	if p.Path == "" {
		return failure("path is required: a source file or a directory, relative to the workspace root"), nil
	}
	abs, err := env.Resolve(p.Path)
	if err != nil {
		return failureErr(err), nil
	}
	shown := displayPath(env.Root, abs)
	if env.Hidden != nil && env.Hidden(abs) {
		// A file a rule denies reading (read_file(secrets/**) says the
		// same of this tool): its definitions would read it in part.
		return failure("a permission rule denies reading %s", shown), nil
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return failure("cannot list definitions of %s: %v", shown, err), nil
	}
	var out strings.Builder
	if fi.IsDir() {
		err = listDirDefinitions(ctx, env, abs, &out)
	} else {
		err = listFileDefinitions(ctx, env, abs, shown, &out)
	}
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		return failureErr(err), nil
	}
	return Result{Output: out.String(), Locations: []Location{{Path: abs}}, Touched: []string{abs}}, nil
}

// listFileDefinitions parses the editor's view of one file, so the line
// numbers match what read_file shows.
func listFileDefinitions(ctx context.Context, env *Env, abs, shown string, out *strings.Builder) error {
	lang := treesitter.ForPath(abs)
	if lang == nil {
		return fmt.Errorf("%s is not a source file tandem can parse; read it with read_file", shown)
	}
	var src []byte
	if env.Host != nil {
		text, err := env.Host.ReadFile(ctx, abs)
		if err != nil {
			return fmt.Errorf("cannot read %s: %v", shown, err)
		}
		src = []byte(text)
	} else {
		data, err := os.ReadFile(abs)
		if err != nil {
			return fmt.Errorf("cannot read %s: %v", shown, err)
		}
		src = data
	}
	f := codeindex.ParseFile(shown, lang, src)
	return codeindex.WriteListing(out, []*codeindex.File{f}, codeindex.ListOptions{MaxDepth: -1})
}

// listDirDefinitions lists a directory through the index of the session
// root holding it, brought up to date first; without one a throwaway index
// of the directory alone is built. Paths in an additional root are listed
// absolute, as the model names them to the other tools.
func listDirDefinitions(ctx context.Context, env *Env, abs string, out *strings.Builder) error {
	ix := env.indexFor(abs)
	if ix != nil {
		if _, ok := within(ix.Root(), abs); !ok {
			ix = nil
		}
	}
	if ix == nil {
		var err error
		if ix, err = codeindex.Open(ctx, abs, codeindex.Options{}); err != nil {
			return err
		}
	} else if _, err := ix.Refresh(ctx); err != nil {
		return err
	}
	prefix := ""
	if d := displayPath(env.Root, ix.Root()); d != "." {
		prefix = d + "/"
	}
	return codeindex.WriteListing(out, ix.Visible(ix.Files(abs), env.Hidden), codeindex.ListOptions{
		MaxDepth: 1, SkipFields: true, MaxLines: defsMaxLines, PathPrefix: prefix,
	})
}
