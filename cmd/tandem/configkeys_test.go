package main

import (
	"slices"
	"testing"
)

func TestUnknownConfigKeys(t *testing.T) {
	got := unknownConfigKeys([]byte(`{"modle":"x","provider":"openai","sandbox":{"mode":"off","netwrk":"deny"},
		"contextWindows":{"any-model":1000},"repoMap":{"tokens":10},"zzzzzzzz":1,
		"permissions":{"allow":["run_command(go test:*)"],"dney":[]},"instructions":{"maxBytes":10},"thoughtLevel":"low"}`))
	want := []string{
		`"modle" is not a config key (did you mean "model"?)`,
		`"permissions.dney" is not a config key (did you mean "permissions.deny"?)`,
		`"sandbox.netwrk" is not a config key (did you mean "sandbox.network"?)`,
		`"zzzzzzzz" is not a config key`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if keys := configKeys(); !slices.Contains(keys, "commandEnv.allow") || !slices.Contains(keys, "openaiBaseUrl") ||
		!slices.Contains(keys, "googleCloudProject") || !slices.Contains(keys, "profiles") {
		t.Errorf("configKeys = %v", keys)
	}
	if got := unknownConfigKeys([]byte(`not json`)); got != nil {
		t.Errorf("invalid JSON: %v", got)
	}
}
