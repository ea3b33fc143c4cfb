package main

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/settings"
	"github.com/tandemhq/tandem/internal/editdist"
)

// instructionsKeys mirrors the "instructions" object agent/instructions
// reads from config.json (its own type is unexported there).
type instructionsKeys struct {
	Candidates      []string `json:"candidates"`
	LocalCandidates []string `json:"localCandidates"`
	RootMarkers     []string `json:"rootMarkers"`
	MaxBytes        int64    `json:"maxBytes"`
	MaxSourceBytes  int64    `json:"maxSourceBytes"`
}

// configSections are the objects other packages read from config.json,
// beside config.File's keys. A package that starts reading a new
// top-level key adds it here, or every user of it is told it is unknown.
var configSections = []struct {
	name string
	typ  reflect.Type
}{
	{"permissions", reflect.TypeOf(settings.Lists{})},
	{"instructions", reflect.TypeOf(instructionsKeys{})},
	{"hooks", reflect.TypeOf(struct{}{})}, // event names: agent/hooks checks them
}

// configKeys lists the keys config.json understands, dotted for nested
// objects ("sandbox.mode"), read from the JSON tags of the types that
// decode it so the list cannot drift from what they read. A key whose
// value is a map of user-chosen names ("contextWindows") ends the path.
func configKeys() []string {
	var keys []string
	var walk func(t reflect.Type, prefix string)
	walk = func(t reflect.Type, prefix string) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
				walk(f.Type, prefix) // an embedded struct's keys are flat in the file
				continue
			}
			if name == "" || name == "-" {
				continue
			}
			keys = append(keys, prefix+name)
			if f.Type.Kind() == reflect.Struct {
				walk(f.Type, prefix+name+".")
			}
		}
	}
	walk(reflect.TypeOf(config.File{}), "")
	for _, sec := range configSections {
		keys = append(keys, sec.name)
		walk(sec.typ, sec.name+".")
	}
	sort.Strings(keys)
	return keys
}

// unknownConfigKeys reads config.json's text and describes every key it
// does not understand, with the closest known key when one is near:
// `"modle" is not a config key (did you mean "model"?)`. A file that is
// not a JSON object yields nothing here; Load reports that.
func unknownConfigKeys(data []byte) []string {
	known := configKeys()
	isKnown := map[string]bool{}
	for _, k := range known {
		isKnown[k] = true
	}
	var out []string
	var walk func(obj map[string]json.RawMessage, prefix string)
	walk = func(obj map[string]json.RawMessage, prefix string) {
		names := make([]string, 0, len(obj))
		for k := range obj {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			path := prefix + k
			if !isKnown[path] {
				msg := fmt.Sprintf("%q is not a config key", path)
				if near := closest(path, known); near != "" {
					msg += fmt.Sprintf(" (did you mean %q?)", near)
				}
				out = append(out, msg)
				continue
			}
			var sub map[string]json.RawMessage
			if json.Unmarshal(obj[k], &sub) == nil && hasChildren(path, known) {
				walk(sub, path+".")
			}
		}
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) == nil {
		walk(top, "")
	}
	return out
}

func hasChildren(path string, known []string) bool {
	for _, k := range known {
		if strings.HasPrefix(k, path+".") {
			return true
		}
	}
	return false
}

// closest returns the known key nearest to key by edit distance (ignoring
// case), or "" when none is near enough to be a likely typo.
func closest(key string, known []string) string {
	best, bestD := "", 0
	for _, k := range known {
		d := editdist.Levenshtein(strings.ToLower(key), strings.ToLower(k))
		if best == "" || d < bestD {
			best, bestD = k, d
		}
	}
	if bestD > max(2, len(key)/3) {
		return ""
	}
	return best
}
