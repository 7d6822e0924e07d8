package problemtext

import (
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
)

// TestTickRefusal: only errors block a tick; warnings are listed with
// them but never block alone.
func TestTickRefusal(t *testing.T) {
	errP := agentproto.Problem{Path: "a.go", Line: 3, Severity: "error", Message: "undefined: x", Source: "compiler", Code: "UndeclaredName"}
	warn := agentproto.Problem{Path: "a.go", Line: 5, Severity: "warning", Message: "unused parameter", Source: "unusedparams"}
	hint := agentproto.Problem{Path: "a.go", Line: 6, Severity: "hint", Message: "could be simpler"}
	tests := []struct {
		name  string
		probs []agentproto.Problem
		want  []string // "" = not refused
	}{
		{"nothing new", nil, nil},
		{"warnings only", []agentproto.Problem{warn, hint}, nil},
		{"an error", []agentproto.Problem{errP}, []string{"step not ticked", "a.go:3: error: undefined: x (compiler UndeclaredName)", "the user can still tick it by hand"}},
		{"an error and a warning", []agentproto.Problem{warn, errP}, []string{"a.go:3: error", "warnings (not blocking):\na.go:5: warning: unused parameter (unusedparams)"}},
		{"a server's bidi and escape characters", []agentproto.Problem{{Path: "a.go", Line: 1, Severity: "error", Message: "x\u202E\x1b[2Jy", Source: "evil"}}, []string{`a.go:1: error: x\u202E\u001B[2Jy (evil)`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := TickRefusal(tc.probs)
			if (got == "") != (tc.want == nil) {
				t.Fatalf("TickRefusal = %q, want refused: %v", got, tc.want != nil)
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("TickRefusal = %q, lacks %q", got, w)
				}
			}
			if strings.ContainsAny(got, "\u202E\x1b") {
				t.Errorf("a raw bidi or escape character: %q", got)
			}
			if strings.Contains(got, "hint") {
				t.Errorf("hints are not listed: %q", got)
			}
		})
	}
}

// TestTickRefusalLines: a refusal for a log, escaped.
func TestTickRefusalLines(t *testing.T) {
	r := agentproto.TickRefusal{Steps: []string{"Change \u202egreeting"}, Problems: []agentproto.Problem{{Path: "main.go", Line: 7, Severity: "error", Message: "bad\nthing", Source: "compiler"}}}
	got := strings.Join(TickRefusalLines(r), "\n")
	want := "[plan] step “Change \\u202Egreeting” not ticked: the files changed in it have new errors\n[plan]   main.go:7: error: bad thing (compiler)"
	if got != want {
		t.Fatalf("TickRefusalLines =\n%s\nwant\n%s", got, want)
	}
}

// TestBlocking: the errors, then the warnings, in their order; hints and
// information are left out, and none is an empty list, not nil.
func TestBlocking(t *testing.T) {
	t.Parallel()
	probs := []agentproto.Problem{{Path: "w1", Severity: "warning"}, {Path: "e1", Severity: "error"}, {Path: "h", Severity: "hint"}, {Path: "e2", Severity: "error"}, {Path: "i", Severity: "information"}}
	var got []string
	for _, p := range Blocking(probs) {
		got = append(got, p.Path)
	}
	if strings.Join(got, " ") != "e1 e2 w1" {
		t.Fatalf("Blocking = %q", got)
	}
	if b := Blocking(nil); b == nil || len(b) != 0 {
		t.Fatalf("Blocking(nil) = %#v, want an empty list", b)
	}
}

// TestShownLines: the lines a face shows (the log's, ACP's "New problems")
// carry no control or bidi character of the language server's text.
func TestShownLines(t *testing.T) {
	t.Parallel()
	probs := []agentproto.Problem{
		{Path: "main.go", Line: 7, Severity: "error", Message: "cannot use \"\u202eevil\" \x1b[2J", Source: "compiler"},
		{Path: "a\u2066b.go", Line: 1, Severity: "warning", Message: "plain"},
	}
	got := ShownLines(probs)
	want := []string{`main.go:7: error: cannot use "\u202Eevil" \u001B[2J (compiler)`, `a\u2066b.go:1: warning: plain`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("ShownLines =\n%q\nwant\n%q", got, want)
	}
}
