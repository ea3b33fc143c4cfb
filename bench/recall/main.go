// Command recall compares `tandem defs --json` with universal-ctags on one
// source tree and prints, per language, the recall of ctags' definitions
// (ctags never tags function locals by default, so this is recall outside
// function bodies) and tandem's precision against ctags, with a sample of
// misses to look at. It is the measuring half of bench/recall.sh.
//
// usage: recall -tandem BIN [-show N] TREE
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

type tag struct {
	Type string `json:"_type"`
	Name string `json:"name"`
	Path string `json:"path"`
	Line int    `json:"line"`
	Kind string `json:"kind"`
	// ScopeKind is the kind of the tag's enclosing definition; a function
	// or method there means the tag is inside a function body.
	ScopeKind string `json:"scopeKind"`
	Language  string `json:"language"`
	Scope     string `json:"scope"`
	Pattern   string `json:"pattern"`
}

type file struct {
	Path string `json:"path"`
	Lang string `json:"lang"`
	Err  string `json:"error"`
	Defs []struct {
		Name  string `json:"name"`
		Kind  string `json:"kind"`
		Start int    `json:"start"`
		End   int    `json:"end"`
	} `json:"defs"`
}

// skipKinds are ctags kinds that are not definitions in tandem's sense:
// imports, packages, parameters, the include guard's own macro is kept.
var skipKinds = map[string]bool{
	"package": true, "packageName": true, "unknown": true,
	"module": false, "import": true, "parameter": true, "macroparam": true,
	"header": true, "label": true, "local": true, "anonMember": true,
	"receiver": true,
}

// inBody are scope kinds whose members are inside a function body, which
// tandem does not index (nested functions, locals of a closure).
var inBody = map[string]bool{"function": true, "method": true, "func": true, "member": false}

// unreferenced are tandem kinds ctags has no kind for in a language
// (Rust constants): they cannot be checked against it, so they are
// counted apart and left out of precision.
var unreferenced = map[string]map[string]bool{"rust": {"constant": true}}

type span struct {
	start, end int
	kind       string
}

type stats struct {
	tags, found, defs, matched, unref int
	missKinds, extraKinds             map[string]int
	misses, extras                    []string
}

func main() {
	bin := flag.String("tandem", "tandem", "the tandem binary")
	show := flag.Int("show", 5, "misses to print per language")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: recall -tandem BIN [-show N] TREE")
		os.Exit(2)
	}
	tree, err := filepath.Abs(flag.Arg(0))
	check(err)

	var files []file
	// A fresh TANDEM_HOME, so no cached index from another build answers.
	home, err := os.MkdirTemp("", "recall-home-")
	check(err)
	defer os.RemoveAll(home)
	run := exec.Command(*bin, "defs", "--json", tree)
	run.Env = append(os.Environ(), "TANDEM_HOME="+home)
	out, err := run.Output()
	check(err)
	check(json.Unmarshal(out, &files))

	// tandem's definitions by file, and the language of each file it knows.
	defs := map[string]map[string][]span{}
	lang := map[string]string{}
	skipped := map[string]int{}
	var skips []string
	for _, f := range files {
		p := abs(tree, f.Path)
		// Minified files are tagged by ctags but are nobody's source.
		if strings.Contains(p, ".min.") {
			continue
		}
		lang[p] = f.Lang
		if f.Err != "" {
			skipped[f.Lang]++
			skips = append(skips, fmt.Sprintf("  %s: %s", rel(tree, p), f.Err))
		}
		m := map[string][]span{}
		for _, d := range f.Defs {
			m[normalize(d.Name)] = append(m[normalize(d.Name)], span{d.Start, d.End, d.Kind})
		}
		defs[p] = m
	}

	// Prototypes and extern variables are off in ctags by default; tandem
	// lists both (a header is an API), so they are part of the reference.
	cmd := exec.Command("ctags", "-R", "--output-format=json", "--fields=+nKZl",
		"--kinds-C=+px", "--kinds-C++=+px", "-f", "-", tree)
	pipe, err := cmd.StdoutPipe()
	check(err)
	check(cmd.Start())
	tags := map[string]map[string][]int{}
	per := map[string]*stats{}
	sc := bufio.NewScanner(pipe)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var t tag
		if json.Unmarshal(sc.Bytes(), &t) != nil || !counted(t) {
			continue
		}
		t.Name = normalize(t.Name)
		p := abs(tree, t.Path)
		l, ok := lang[p]
		if !ok {
			continue // a file tandem does not index (a language it lacks)
		}
		s := per[l]
		if s == nil {
			s = &stats{missKinds: map[string]int{}, extraKinds: map[string]int{}}
			per[l] = s
		}
		if tags[p] == nil {
			tags[p] = map[string][]int{}
		}
		tags[p][t.Name] = append(tags[p][t.Name], t.Line)
		if l == "javascript" && t.Kind == "property" {
			// ctags tags every key of a module-level object literal, data
			// tables included; tandem lists an object's methods and an
			// exports object's keys (tagged "method"/"property" alike by
			// ctags, so no key counts toward recall).
			continue // still in tags, so tandem's exports keys count as right
		}
		s.tags++
		if near(defs[p][t.Name], t.Line) {
			s.found++
		} else {
			s.missKinds[t.Kind]++
			s.misses = append(s.misses, fmt.Sprintf("%s:%d %s %s", rel(tree, p), t.Line, t.Kind, t.Name))
		}
	}
	_, _ = io.Copy(io.Discard, pipe)
	check(cmd.Wait())

	for p, m := range defs {
		s := per[lang[p]]
		if s == nil {
			continue
		}
		for name, spans := range m {
			for _, sp := range spans {
				switch {
				case slices.ContainsFunc(tags[p][name], func(line int) bool { return near([]span{sp}, line) }):
					s.defs++
					s.matched++
				case (sp.kind == "function" || sp.kind == "method") && len(tags[p][name]) > 0:
					// An overload: tandem lists each signature of
					// `function merge(…)` (TypeScript, C++), ctags one.
					s.defs++
					s.matched++
				case unreferenced[lang[p]][sp.kind]:
					s.unref++
				default:
					s.defs++
					s.extraKinds[sp.kind]++
					s.extras = append(s.extras, fmt.Sprintf("%s:%d %s %s", rel(tree, p), sp.start, sp.kind, name))
				}
			}
		}
	}

	langs := make([]string, 0, len(per))
	for l := range per {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	fmt.Printf("%-12s %8s %8s %8s %9s %8s %8s\n", "language", "ctags", "recall", "tandem", "precision", "no-ref", "skipped")
	for _, l := range langs {
		s := per[l]
		fmt.Printf("%-12s %8d %7.1f%% %8d %8.1f%% %8d %8d  %s\n", l, s.tags, pct(s.found, s.tags), s.defs, pct(s.matched, s.defs), s.unref, skipped[l], verdict(s))
	}
	if len(skips) > 0 {
		fmt.Printf("\nnot indexed:\n%s\n", strings.Join(skips, "\n"))
	}
	for _, l := range langs {
		s := per[l]
		sample(l+" misses by ctags kind", s.missKinds, s.misses, *show)
		sample(l+" tandem-only by kind", s.extraKinds, s.extras, *show)
	}
}

// sample prints the counts by kind and every len(list)/n-th entry.
func sample(title string, kinds map[string]int, list []string, n int) {
	if len(list) == 0 || n == 0 {
		return
	}
	fmt.Printf("\n%s: %s\n", title, topKinds(kinds))
	sort.Strings(list)
	step := max(1, len(list)/n)
	for i := 0; i < len(list) && i/step < n; i += step {
		fmt.Println("  " + list[i])
	}
}

// near reports whether a definition spans line, or starts just after it
// (ctags tags a decorator's or a multi-line signature's first line).
func near(spans []span, line int) bool {
	for _, s := range spans {
		if line >= s.start-2 && line <= max(s.end, s.start) {
			return true
		}
	}
	return false
}

// counted reports whether a ctags tag belongs to the reference.
func counted(t tag) bool {
	switch {
	case t.Type != "tag", skipKinds[t.Kind], inBody[t.ScopeKind], t.Name == "_":
		return false
	case t.Kind == "namespace" && t.Language == "Python": // an import
		return false
	case t.Language == "TypeScript" && t.Scope == "" && strings.HasPrefix(t.Pattern, "/^ "):
		// ctags' TypeScript parser tags locals of function bodies
		// (`const { observers } = this;` in a method) with no scope; an
		// indented tag without a scope is one of those.
		return false
	case strings.HasPrefix(t.Name, "__anon"), strings.HasPrefix(t.Name, "AnonymousFunction"):
		// ctags' made-up names for anonymous structs, enums and functions;
		// tandem lists such a struct's members, not the struct.
		return false
	}
	return true
}

// normalize spells C++ operators one way: ctags writes "operator ==",
// tandem the source's "operator==".
func normalize(name string) string {
	if strings.HasPrefix(name, "operator") {
		return strings.ReplaceAll(name, " ", "")
	}
	return name
}

func verdict(s *stats) string {
	var b bytes.Buffer
	if pct(s.found, s.tags) >= 97 {
		b.WriteString("recall ok")
	} else {
		b.WriteString("recall LOW")
	}
	if pct(s.matched, s.defs) >= 95 {
		b.WriteString(", precision ok")
	} else {
		b.WriteString(", precision LOW")
	}
	return b.String()
}

func topKinds(m map[string]int) string {
	type kv struct {
		k string
		v int
	}
	var l []kv
	for k, v := range m {
		l = append(l, kv{k, v})
	}
	sort.Slice(l, func(i, j int) bool { return l[i].v > l[j].v })
	var parts []string
	for i, e := range l {
		if i == 6 {
			break
		}
		parts = append(parts, fmt.Sprintf("%s %d", e.k, e.v))
	}
	return strings.Join(parts, ", ")
}

func pct(a, b int) float64 {
	if b == 0 {
		return 100
	}
	return 100 * float64(a) / float64(b)
}

func abs(tree, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(tree, p)
}

func rel(tree, p string) string {
	if r, err := filepath.Rel(tree, p); err == nil {
		return r
	}
	return p
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "recall:", err)
		os.Exit(1)
	}
}
