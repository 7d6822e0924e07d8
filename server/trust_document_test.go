package server

import (
	"os"
	"strings"
	"testing"

	"github.com/agentls/agentls/config"
)

// TestTrustDocumentSaysWhatItLists: the trust document's first sentence
// counts what the file grants as it is (keys, sub-agent kinds or both;
// "1 key", not "0 keys and 1 sub-agent kinds").
func TestTrustDocumentSaysWhatItLists(t *testing.T) {
	for _, tc := range []struct {
		name          string
		widening      []string
		kinds         []string
		want, notWant string
	}{
		{"kinds only", nil, []string{`sub-agent kind "a"`}, "lets in 1 sub-agent kind,", "keys"},
		{"one key", []string{"run.allow"}, nil, "sets 1 key,", "sub-agent"},
		{"both", []string{"run.allow", "model"}, []string{`sub-agent kind "a"`, `sub-agent kind "b"`}, "sets 2 keys and lets in 2 sub-agent kinds,", "0 "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := config.WorkspaceTrust{Path: "/w/.agentls.yaml", Sum: "abc", Widening: tc.widening, Kinds: tc.kinds}
			path, err := writeTrustDocument(t.TempDir(), w)
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(strings.SplitN(string(b), "\n\n", 3)[1], ". ")
			if !strings.Contains(first, tc.want) || strings.Contains(first, tc.notWant) {
				t.Errorf("the document says %q; want %q in it and no %q", first, tc.want, tc.notWant)
			}
		})
	}
}
