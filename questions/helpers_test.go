package questions

import (
	"os"
	"path/filepath"
	"testing"
)

// mustParseFile parses testdata/<name>.json as ask_user arguments.
func mustParseFile(t *testing.T, name string) *Set {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	set, err := Parse(b)
	if err != nil {
		t.Fatalf("Parse(%s): %v", name, err)
	}
	return set
}

// mustDecode decodes answers JSON.
func mustDecode(t *testing.T, raw string) map[string]any {
	t.Helper()
	m, err := DecodeAnswers([]byte(raw))
	if err != nil {
		t.Fatalf("DecodeAnswers(%s): %v", raw, err)
	}
	return m
}
