package guard

import (
	"testing"

	"github.com/agentls/agentls/agentproto"
)

func TestProtectedName(t *testing.T) {
	tests := []struct {
		elem string
		want string // the protected name matched, "" for none
	}{
		{".git", ".git"},
		{".GIT", ".git"},
		{".Git", ".git"},
		{".g\u200cit", ".git"},   // HFS+ ignores zero-width characters
		{"\ufeff.git", ".git"},   // byte order mark
		{".git.", ".git"},        // Windows drops trailing dots
		{".git .", ".git"},       // and spaces
		{".agentls", ".agentls"}, // agentls's state
		{".AGENTLS", ".agentls"},
		{".hg", ".hg"},
		{".SVN", ".svn"},
		{".jj", ".jj"},
		{".gitignore", ""},
		{".github", ""},
		{".git.plan", ""},
		{"git", ""},
		{".gi", ""},
		{"..", ""},
		{"", ""},
	}
	for _, tt := range tests {
		got := ""
		if p := protectedName(tt.elem); p != nil {
			got = p.name
		}
		if got != tt.want {
			t.Errorf("protectedName(%q) = %q, want %q", tt.elem, got, tt.want)
		}
	}
}

// TestProtectedListInOnePlace: every protected entry says what it is and
// what to do instead, and names are unique.
func TestProtectedListInOnePlace(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range protectedNames {
		if p.what == "" || p.instead == "" || seen[p.name] {
			t.Errorf("protected entry %+v: missing text or duplicate", p)
		}
		seen[p.name] = true
		if p.reason != ReasonAgentState && p.reason != ReasonProtected {
			t.Errorf("protected entry %q has reason %d", p.name, p.reason)
		}
	}
	for _, n := range []string{".agentls", ".git", ".hg", ".svn", ".jj"} {
		if !seen[n] {
			t.Errorf("%s is not protected", n)
		}
	}
}

// TestWithConfigCopies: WithConfig leaves the guard it copies alone and
// ignores relative and empty paths.
func TestWithConfigCopies(t *testing.T) {
	sb := newSandbox(t, setupNoPlans)
	base := New(sb.w, "plans", declaredTools)
	g := base.WithConfig(sb.ws+"/conf/team.yaml", "relative.yaml", "")
	if len(base.config) != 0 || len(g.config) != 1 {
		t.Fatalf("base config %q, copy config %q", base.config, g.config)
	}
	args := []byte(`{"path":"conf/team.yaml","content":"x"}`)
	if r := base.CheckCall(stateOf(agentproto.ModeBuild), "write", args); r != nil {
		t.Fatalf("base guard refused: %v", r)
	}
	if r := g.CheckCall(stateOf(agentproto.ModeBuild), "write", args); r == nil || r.Reason != ReasonAgentState || r.Protected != "agentls's configuration "+sb.ws+"/conf/team.yaml" {
		t.Fatalf("guard with config: %+v", r)
	}
}
