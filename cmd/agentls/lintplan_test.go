package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLintPlanCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.plan", "---\ntitle: t\nstatus: draft\n---\n## Files\n- a\n## Steps\n- [ ] a\n## Verification\n- ok\n")
	styleOnly := write("style.plan", "---\ntitle: t\nstatus: draft\n---\n## Steps\n- [ ] a\n")
	bad := write("bad.plan", "---\ntitle: t\nstatus: wip\n---\n## Files\n## Steps\n- [ ] 🎉 a\n- [ ] 🎉 a\n## Verification\n")
	missing := filepath.Join(dir, "missing.plan")
	tests := []struct {
		name     string
		args     []string
		code     int
		stdout   string
		inStderr string
	}{
		{name: "clean", args: []string{good}, code: 0},
		{name: "warnings only", args: []string{styleOnly}, code: 0, stdout: styleOnly + ":1:1: warning: no '## Files' section: list each file the plan changes and what changes in it\n" +
			styleOnly + ":1:1: warning: no '## Verification' section: say which commands or checks prove that the plan worked\n"},
		{name: "errors, 1-based UTF-16 columns", args: []string{good, bad}, code: 1, stdout: bad + ":3:9: error: unknown status \"wip\": use draft, approved, implemented or archived\n" +
			bad + ":8:7: error: duplicate step \"🎉 a\" (first on line 7): merge the two, or say in each what is different\n"},
		{name: "unreadable file", args: []string{missing, good}, code: 1, stdout: missing + ": error: cannot read the plan: "},
		{name: "no file", args: nil, code: 2, inStderr: "usage: agentls lint-plan [--] FILE..."},
		{name: "help", args: []string{"--help"}, code: 0, stdout: lintPlanUsage},
		{name: "unknown option", args: []string{"--strict", good}, code: 2, inStderr: `unknown option "--strict"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"lint-plan"}, tt.args...), strings.NewReader(""), &stdout, &stderr)
			if code != tt.code {
				t.Errorf("exit code = %d, want %d (stdout %q, stderr %q)", code, tt.code, stdout.String(), stderr.String())
			}
			if tt.name == "unreadable file" {
				if !strings.HasPrefix(stdout.String(), tt.stdout) {
					t.Errorf("stdout = %q, want prefix %q", stdout.String(), tt.stdout)
				}
			} else if stdout.String() != tt.stdout {
				t.Errorf("stdout =\n%s\nwant\n%s", stdout.String(), tt.stdout)
			}
			if !strings.Contains(stderr.String(), tt.inStderr) {
				t.Errorf("stderr = %q, want it to contain %q", stderr.String(), tt.inStderr)
			}
		})
	}
}

// TestLintPlanDashedFile: a file named like an option is linted after
// "--", and refused as an unknown option without it (not parallel: it
// changes the working folder).
func TestLintPlanDashedFile(t *testing.T) {
	t.Chdir(t.TempDir())
	const dashed = "--bad.plan"
	if err := os.WriteFile(dashed, []byte("---\ntitle: t\nstatus: wip\n---\n## Files\n- a\n## Steps\n- [ ] a\n## Verification\n- ok\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"lint-plan", "--", dashed}, strings.NewReader(""), &stdout, &stderr); code != 1 ||
		stdout.String() != dashed+":3:9: error: unknown status \"wip\": use draft, approved, implemented or archived\n" {
		t.Errorf("after --: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"lint-plan", dashed}, strings.NewReader(""), &stdout, &stderr); code != 2 || stdout.Len() > 0 {
		t.Errorf("without --: exit %d, stdout %q (want 2, nothing)", code, stdout.String())
	}
}

// TestLintPlanCommandGoldenPlans runs the command on the linter's golden
// plans: the exit code follows the errors of each golden file.
func TestLintPlanCommandGoldenPlans(t *testing.T) {
	t.Parallel()
	paths, err := filepath.Glob("../../testdata/plans/*.plan")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no plans: %v", err)
	}
	for _, p := range paths {
		golden, err := os.ReadFile(strings.TrimSuffix(p, ".plan") + ".golden")
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		if strings.Contains(string(golden), " error: ") {
			want = 1
		}
		var stdout, stderr bytes.Buffer
		if code := run([]string{"lint-plan", p}, strings.NewReader(""), &stdout, &stderr); code != want {
			t.Errorf("lint-plan %s: exit code %d, want %d\n%s", p, code, want, stdout.String())
		}
		if lines := strings.Count(stdout.String(), "\n"); lines != strings.Count(string(golden), "\n") {
			t.Errorf("lint-plan %s printed %d lines, the golden file has %d", p, lines, strings.Count(string(golden), "\n"))
		}
	}
}
