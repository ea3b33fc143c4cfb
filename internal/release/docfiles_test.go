package release

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Archives carry LICENSE when the repository has one; without one the
// release goes on and says so (choosing a licence is the owner's call).
func TestDocFilesLicenseWhenPresent(t *testing.T) {
	root := t.TempDir()
	readme := filepath.Join(root, "README.md")
	if err := os.WriteFile(readme, []byte("# tandem\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	got, err := docFiles(root, &log)
	if err != nil || !slices.Equal(got, []string{readme}) || !strings.Contains(log.String(), "no LICENSE") {
		t.Fatalf("without LICENSE: %q, %v, log %q; want README alone and a warning", got, err, log.String())
	}
	license := filepath.Join(root, "LICENSE")
	if err := os.WriteFile(license, []byte("licence text\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	log.Reset()
	got, err = docFiles(root, &log)
	if err != nil || !slices.Equal(got, []string{license, readme}) || log.Len() != 0 {
		t.Fatalf("with LICENSE: %q, %v, log %q; want both and no warning", got, err, log.String())
	}
}
