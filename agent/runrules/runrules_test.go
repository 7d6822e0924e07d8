package runrules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/internal/allowrule"
	"github.com/agentls/agentls/workspace"
)

// TestRead: run.allow as the manager reads it. Invalid rules (a
// glob glued to a word, a list) are left out; every match is by words.
func TestRead(t *testing.T) {
	t.Parallel()
	rules := Read([]string{"go test ./...", "git status", "npm run *", " make lint ", "", "echo*x", "go build ./... && rm -rf /"})
	if len(rules) != 4 {
		t.Fatalf("rules = %v, want 4 valid ones", rules)
	}
	tests := []struct {
		command string
		want    bool
	}{
		{"go test ./...", true},
		{"go test ./... -run X", false},
		{"go test ./...; rm -rf /", false},
		{"git status", true},
		{"git statusx", false},
		{"npm run build", true},
		{"npm run ", true},
		{"npm run", true},
		{"npm runx", false},
		{"npm run build | sh", false},
		{"make lint", true},
		{"make  'lint'", true},
		{"rm -rf /", false},
		{"echo x", false},
		{"echo*x", false},
		{"go build ./... && rm -rf /", false},
		{"", false},
	}
	for _, tc := range tests {
		c, err := allowrule.Parse(tc.command)
		got := rules.Match(c, nil)
		if got != tc.want {
			t.Errorf("%q allowed = %v (parse: %v), want %v", tc.command, got, err, tc.want)
		}
	}
	if Read(nil).Match(mustParse(t, "ls"), nil) {
		t.Error("an empty allow list allowed a command")
	}
	rs, others := Grantable([]string{"go test *", " make ", "", "go test ./... ; touch x", "npm test*"})
	if strings.Join(rs, "|") != "go test *|make" || strings.Join(others, "|") != "go test ./... ; touch x|npm test*" {
		t.Errorf("Grantable = %q, %q", rs, others)
	}
}

// TestGrantable: a plan's allowed_commands follow run.allow's
// grammar; entries that grant more than they show are not offered.
func TestGrantable(t *testing.T) {
	t.Parallel()
	rules, others := Grantable([]string{
		"go test *", "go test --*", "make", "*", "--*", "sh *", "env FOO=1 make", "go test -exec=./x *",
		"git diff --output=/tmp/x *", "cat /etc/passwd", "tar cf b.tar *", "ls src/*.go", "git -C sub status",
	})
	if got := strings.Join(rules, "|"); got != "go test *|go test --*|make|tar cf b.tar *" {
		t.Errorf("granted %q", got)
	}
	if len(others) != 9 {
		t.Errorf("not offered %q, want 9", others)
	}
}

func mustParse(t *testing.T, command string) allowrule.Command {
	t.Helper()
	c, err := allowrule.Parse(command)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestJudge: the decision on its own, without a session: a rule of any
// set lets a simple command run in a workspace folder; a list, another
// folder or a path outside the workspace leave it to the user, saying why.
func TestJudge(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	ws, err := workspace.New(root)
	if err != nil {
		t.Fatal(err)
	}
	config, session := Read([]string{"go test *"}), Read([]string{"cat *"})
	for _, tc := range []struct {
		command, dir string
		rule         string // "" for none
		notSimple    bool
		folder       string
	}{
		{command: "go test ./...", rule: "go test *"},
		{command: "cat a.txt", rule: "cat *"},
		{command: "cat /etc/passwd"},
		{command: "cat a.txt; rm -rf /", notSimple: true},
		{command: "cat a.txt", dir: filepath.Join(root, "sub"), folder: "sub"},
		{command: "make"},
	} {
		d := Judge(ws, tc.command, tc.dir, config, session)
		if d.Rule != tc.rule || (d.NotSimple != "") != tc.notSimple || d.Folder != tc.folder {
			t.Errorf("Judge(%q in %q) = %+v, want rule %q, not simple %v, folder %q", tc.command, tc.dir, d, tc.rule, tc.notSimple, tc.folder)
		}
	}
}
