package sessionstore

import (
	"regexp"
	"strings"
	"testing"
)

// idRe is the rule ValidID's loop stands for (it was this expression).
var idRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)

// validByRule is ValidID's verdict by the regular expression.
func validByRule(id string) bool { return idRe.MatchString(id) && !strings.Contains(id, "..") }

var idCases = []string{
	"", "a", "0", "01a218db-f1b0-7953-95e1-4a24841d060e", "a.b", "a..b", "a_b-c.d", ".a", "_a", "-a",
	"a/b", `a\b`, "a b", "é", "a\x00", "a\n", strings.Repeat("a", 128), strings.Repeat("a", 129),
	"a.", "..", "a-", "A_Z.9",
}

// TestValidIDIsTheRule: the loop accepts exactly what the regular
// expression and the ".." rule accept.
func TestValidIDIsTheRule(t *testing.T) {
	for _, id := range idCases {
		if got, want := ValidID(id) == nil, validByRule(id); got != want {
			t.Errorf("ValidID(%q) accepts = %v, the rule says %v", id, got, want)
		}
	}
}

// FuzzValidID: the same on any string.
func FuzzValidID(f *testing.F) {
	for _, id := range idCases {
		f.Add(id)
	}
	f.Fuzz(func(t *testing.T, id string) {
		if got, want := ValidID(id) == nil, validByRule(id); got != want {
			t.Fatalf("ValidID(%q) accepts = %v, the rule says %v", id, got, want)
		}
	})
}
