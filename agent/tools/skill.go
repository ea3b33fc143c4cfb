package tools

import (
	"context"
	_ "embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tandemhq/tandem/agent/custom"
	"github.com/tandemhq/tandem/internal/pathx"
)

// SkillName is the model-facing name of the skill tool.
const SkillName = "skill"

// skillMaxFiles bounds the folder listing a skill comes with.
const skillMaxFiles = 200

//go:embed skill.md
var skillDescription string

type skillArgs struct {
	Name string `json:"name" jsonschema:"The skill's name, as listed in the system prompt."`
	File string `json:"file,omitempty" jsonschema:"A file inside the skill's folder, relative to it. Omit to load SKILL.md."`
}

// NewSkill returns the skill tool of one session; skills returns the
// session's current skills.
func NewSkill(skills func() *custom.Set) Tool {
	return New(Spec[skillArgs]{Name: SkillName, Group: GroupRead, Kind: KindRead, Doc: skillDescription,
		Run: func(ctx context.Context, env *Env, a skillArgs) (Result, error) {
			return runSkill(ctx, env, skills(), a)
		},
		Describe: func(_ string, a skillArgs) Preview {
			if a.File != "" {
				return Preview{Title: fmt.Sprintf("Read %s from skill %s", a.File, a.Name)}
			}
			return Preview{Title: "Load skill " + a.Name}
		}})
}

func runSkill(ctx context.Context, env *Env, set *custom.Set, a skillArgs) (Result, error) {
	sk, ok := set.Skill(a.Name)
	if !ok {
		var names []string
		for _, s := range set.Skills {
			names = append(names, s.Name)
		}
		if len(names) == 0 {
			return failure("there is no skill named %q, and this session has no skills", a.Name), nil
		}
		return failure("there is no skill named %q; the skills are: %s", a.Name, strings.Join(names, ", ")), nil
	}
	if a.File != "" {
		abs, err := Resolve(sk.Dir, a.File)
		if err != nil {
			return failure("%s is not a file of skill %s: %v", a.File, sk.Name, err), nil
		}
		text, err := readSkillFile(ctx, env, abs)
		if err != nil {
			if ctx.Err() != nil {
				return Result{}, ctx.Err()
			}
			return failure("cannot read %s of skill %s: %v", a.File, sk.Name, err), nil
		}
		return Result{Output: text}, nil
	}
	text, err := readSkillFile(ctx, env, sk.Path)
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		return failure("cannot read the skill %s: %v", sk.Name, err), nil
	}
	return Result{Output: SkillText(sk, text, env.Root)}, nil
}

// SkillText is how a skill reaches the model, whether it asked for it or
// the user invoked it: where it lives, its files, then its SKILL.md.
func SkillText(sk custom.Skill, skillMD, root string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<skill name=%q folder=%q>\n", sk.Name, displayPath(root, sk.Dir))
	fmt.Fprintf(&b, "The skill's folder is %s. Read its files with the skill tool's file argument; run its scripts from that folder with run_command.\n", sk.Dir)
	if files := skillFiles(sk.Dir); len(files) > 0 {
		fmt.Fprintf(&b, "Files: %s\n", strings.Join(files, ", "))
	}
	fmt.Fprintf(&b, "\n%s\n</skill>", strings.TrimRight(skillMD, "\n"))
	return b.String()
}

// readSkillFile reads a skill's file: through the host when it lies in the
// workspace (the editor's buffer is what the user sees), from disk when it
// is a user-level skill outside it.
func readSkillFile(ctx context.Context, env *Env, abs string) (string, error) {
	if fi, err := os.Stat(abs); err == nil && fi.IsDir() {
		return "", fmt.Errorf("it is a directory")
	}
	if _, ok := pathx.Within(env.Root, abs); ok && env.Host != nil {
		return env.Host.ReadFile(ctx, abs)
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return "", err
	}
	if len(data) > readMaxBytes {
		return "", fmt.Errorf("it is larger than %d bytes", readMaxBytes)
	}
	return string(data), nil
}

// skillFiles lists the files of a skill's folder other than SKILL.md,
// relative to it.
func skillFiles(dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || len(out) >= skillMaxFiles {
			return nil
		}
		if d.IsDir() {
			if path != dir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if rel, err := filepath.Rel(dir, path); err == nil && rel != custom.SkillFile {
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	return out
}
