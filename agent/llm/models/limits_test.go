package models_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/models"
)

// A refusal's limit lowers every configured or guessed window above it,
// never raises one, is kept for the same endpoint in a new Windows (a new
// process), and stays out of another endpoint's.
func TestRefusedLimitLowersTheWindowAndIsKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "home", models.LimitsFileName)
	const endpoint = "http://127.0.0.1:11434/v1"
	w := &models.Windows{Env: 200_000, Endpoint: endpoint, Limits: &models.LimitFile{Path: path}}
	if lowered, err := w.Refused("llama3", 16_384); !lowered || err != nil {
		t.Fatalf("Refused = %v, %v", lowered, err)
	}
	if l, src := w.Lookup("llama3"); l.Context != 16_384 || src != models.FromRefusal {
		t.Errorf("Lookup = %d from %s, want 16384 from the refusal", l.Context, src)
	}
	if lowered, _ := w.Refused("llama3", 20_000); lowered {
		t.Error("a higher limit raised the window")
	}
	if lowered, _ := w.Refused("llama3", 16_384); lowered {
		t.Error("the same limit was learned twice")
	}
	if n := w.Window("llama3"); n != 16_384 {
		t.Errorf("window %d after a higher refusal, want 16384", n)
	}

	// A new process: the configuration still says 200k.
	again := &models.Windows{Config: map[string]int{"llama3": 200_000, "other": 200_000}, Endpoint: endpoint, Limits: &models.LimitFile{Path: path}}
	if n := again.Window("llama3"); n != 16_384 {
		t.Errorf("a new Windows has window %d, want the kept 16384", n)
	}
	if n := again.Window("other"); n != 200_000 {
		t.Errorf("another model's window is %d, want its own 200000", n)
	}
	elsewhere := &models.Windows{Config: map[string]int{"llama3": 200_000}, Endpoint: "https://api.example.com/v1", Limits: &models.LimitFile{Path: path}}
	if n := elsewhere.Window("llama3"); n != 200_000 {
		t.Errorf("another endpoint's window is %d, want 200000", n)
	}
	// A limit above a model's configured window is no news.
	small := &models.Windows{Config: map[string]int{"tiny": 4096}, Endpoint: endpoint, Limits: &models.LimitFile{Path: path}}
	if lowered, _ := small.Refused("tiny", 8192); lowered || small.Window("tiny") != 4096 {
		t.Errorf("a limit above the window changed it to %d", small.Window("tiny"))
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("limits file: %v, %v", fi, err)
	}
}

// A limits file that cannot be read is told once and keeps nothing; the
// next refusal starts it over.
func TestUnreadableLimitsFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), models.LimitsFileName)
	os.WriteFile(path, []byte(`{"version":1,"limits":[`), 0o600)
	var notices []string
	w := &models.Windows{Env: 100_000, Endpoint: "http://h", Limits: &models.LimitFile{Path: path}, Notice: func(m string) { notices = append(notices, m) }}
	if n := w.Window("m"); n != 100_000 || len(notices) != 1 || !strings.Contains(notices[0], "not read") {
		t.Fatalf("window %d, notices %q", n, notices)
	}
	w.Window("m")
	if len(notices) != 1 {
		t.Errorf("notices %q, want one", notices)
	}
	if _, err := w.Refused("m", 8000); err != nil {
		t.Fatal(err)
	}
	kept, err := (&models.LimitFile{Path: path}).Load("http://h")
	if err != nil || kept["m"] != 8000 {
		t.Errorf("kept %v, %v", kept, err)
	}
}

// What names an endpoint carries no credentials.
func TestEndpointHasNoCredentials(t *testing.T) {
	for in, want := range map[string]string{
		"http://user:secret@127.0.0.1:8080/v1/?key=sk-1#x": "http://127.0.0.1:8080/v1",
		"https://api.anthropic.com":                        "https://api.anthropic.com",
		"not a url":                                        "",
	} {
		if got := models.Endpoint(in); got != want {
			t.Errorf("Endpoint(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestMaxOutputKeepsToTheListedLimit: a listed output limit caps the
// configured one and stands in for it where the table knows none; with
// nothing listed the configured value (or the provider's default) stays.
func TestMaxOutputKeepsToTheListedLimit(t *testing.T) {
	w := &models.Windows{}
	w.LearnLimits("local-coder", models.Limits{Context: 32_768, Output: 4096})
	w.LearnLimits("gemini-2.5-pro", models.Limits{Context: 1_048_576, Output: 65_536})
	for _, c := range []struct {
		model      string
		configured int
		want       int
	}{
		{"local-coder", 0, 4096},    // the table knows nothing: the listing's
		{"local-coder", 8192, 4096}, // over the listed limit: capped
		{"local-coder", 1024, 1024}, // under it: kept
		{"gemini-2.5-pro", 0, 0},    // the table knows one: the provider's default
		{"gemini-2.5-pro", 100_000, 65_536},
		{"unlisted-model", 0, 0},
		{"unlisted-model", 50_000, 50_000},
	} {
		if got := w.MaxOutput(c.model, c.configured); got != c.want {
			t.Errorf("MaxOutput(%s, %d) = %d, want %d", c.model, c.configured, got, c.want)
		}
	}
	var none *models.Windows
	if got := none.MaxOutput("x", 7); got != 7 {
		t.Errorf("nil Windows: %d", got)
	}
}
