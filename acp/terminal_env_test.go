package acp

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestCasePattern(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"OPENAI_API_KEY", "OPENAI_API_KEY", true},
		{"*_TOKEN", "*_TOKEN", true},
		{"AWS_*", "AWS_*", true},
		{"GH?_X", "GH?_X", true},
		{"[A-C]_KEY", "[A-C]_KEY", true},
		{"[^A]_KEY", "[!A]_KEY", true}, // path.Match's negation is sh's [!
		{`\*X`, `\*X`, true},
		{"[!A]_KEY", "", false}, // path.Match reads ! as itself there
		{"[AB", "", false},
		{`X\`, "", false},
		{`X\$`, "", false},
		{"X) touch pwned;; *", "", false},
		{"$(touch pwned)", "", false},
		{"`touch pwned`", "", false},
		{"A|B", "", false},
		{"A\nB", "", false},
		{"A B", "", false},
		{"A'B", "", false},
		{"MY.VAR", "", false},
	}
	for _, tc := range tests {
		got, ok := casePattern(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("casePattern(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// The command terminal/create gets runs in the client's environment without
// the denied variables, keeps the rest, keeps its exit code and its own
// shell syntax, and a hostile pattern runs nothing.
func TestTerminalCommandScrubsTheEnvironment(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	deny := []string{"OPENAI_API_KEY", "*_TOKEN", "[^X]WS_*", "X) touch pwned;; *", "$(touch pwned2)", ""}
	command, args := terminalCommand(`env; exit 3`, deny)
	if command != "/bin/sh" || !slices.Contains(args, `env; exit 3`) {
		t.Fatalf("terminalCommand = %s %q", command, args)
	}
	cmd := exec.Command(command, args...)
	cmd.Dir = dir
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"),
		"OPENAI_API_KEY=sk-secret-1",
		"GITHUB_TOKEN=secret-2",
		"AWS_SECRET_ACCESS_KEY=secret-3",
		"XWS_KEEP=kept-1",
		"KEEP_ME=kept-2",
		"MULTI=line1\nFAKE_TOKEN=kept-3", // a value's line looks like a variable: nothing breaks
	}
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
		t.Fatalf("exit %v, want 3; output:\n%s", err, out)
	}
	for _, secret := range []string{"sk-secret-1", "secret-2", "secret-3"} {
		if strings.Contains(string(out), secret) {
			t.Errorf("the command saw %s:\n%s", secret, out)
		}
	}
	for _, kept := range []string{"XWS_KEEP=kept-1", "KEEP_ME=kept-2", "kept-3"} {
		if !strings.Contains(string(out), kept) {
			t.Errorf("the command lost %s:\n%s", kept, out)
		}
	}
	if strings.Contains(string(out), "agentls_v") {
		t.Errorf("the script's own variable leaked into the command:\n%s", out)
	}
	for _, f := range []string{"pwned", "pwned2"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("a run.env_deny pattern ran a command: %s exists", f)
		}
	}
}

// Without patterns the command is /bin/sh -c command, as before.
func TestTerminalCommandWithoutPatterns(t *testing.T) {
	t.Parallel()
	command, args := terminalCommand("echo hi", []string{"", "bad pattern"})
	if command != "/bin/sh" || !slices.Equal(args, []string{"-c", "echo hi"}) {
		t.Errorf("terminalCommand = %s %q", command, args)
	}
}
