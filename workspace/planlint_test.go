package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/internal/golden"
)

// renderPlanDiagnostics renders diagnostics as the golden files hold them:
// "line:col-line:col severity: message", 0-based, one a line.
func renderPlanDiagnostics(diags []PlanDiagnostic) string {
	var b strings.Builder
	for _, d := range diags {
		fmt.Fprintf(&b, "%d:%d-%d:%d %s: %s\n", d.Range.Start.Line, d.Range.Start.Character,
			d.Range.End.Line, d.Range.End.Character, d.Severity, d.Message)
	}
	return b.String()
}

// TestLintPlanGolden lints ../testdata/plans/*.plan against the .golden file
// beside each (go test ./workspace -run LintPlanGolden -update rewrites them).
func TestLintPlanGolden(t *testing.T) {
	paths, err := filepath.Glob("../testdata/plans/*.plan")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no plans: %v", err)
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			text, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			diags := LintPlan(string(text))
			checkRanges(t, string(text), diags)
			got := renderPlanDiagnostics(diags)
			golden.Check(t, strings.TrimSuffix(p, ".plan")+".golden", got)
		})
	}
}

// checkRanges checks that every range lies inside the text and is ordered.
func checkRanges(t *testing.T, text string, diags []PlanDiagnostic) {
	t.Helper()
	for _, d := range diags {
		if d.Severity != PlanSeverityError && d.Severity != PlanSeverityWarning {
			t.Errorf("%+v: bad severity", d)
		}
		if d.Message == "" {
			t.Errorf("%+v: empty message", d)
		}
		start, err := OffsetOf(text, d.Range.Start)
		if err != nil {
			t.Errorf("%+v: start: %v", d, err)
			continue
		}
		end, err := OffsetOf(text, d.Range.End)
		if err != nil || end < start {
			t.Errorf("%+v: end %d before start %d (%v)", d, end, start, err)
		}
	}
}

func TestLintPlanCases(t *testing.T) {
	const good = "---\ntitle: t\nstatus: draft\n---\n## Files\n- a\n## Steps\n- [ ] a\n## Verification\n- ok\n"
	tests := []struct {
		name string
		text string
		want string // rendered diagnostics
	}{
		{"good", good, ""},
		{"empty text", "", "0:0-0:0 error: the plan has no frontmatter: start the file with a '---' line, then 'title: …' and 'status: draft', then a closing '---' line\n" +
			"0:0-0:0 error: the plan has no steps: add them as markdown checkboxes, one action each, e.g. '- [ ] Add the handler' under '## Steps'\n" +
			"0:0-0:0 warning: no '## Files' section: list each file the plan changes and what changes in it\n" +
			"0:0-0:0 warning: no '## Verification' section: say which commands or checks prove that the plan worked\n"},
		{"yaml error without a line", "---\ntitle: x: y\n---\n## Files\n## Steps\n- [ ] a\n## Verification\n",
			"1:0-1:11 error: invalid YAML: mapping values are not allowed in this context\n"},
		{"not a mapping", "---\n- a\n---\n## Files\n## Steps\n- [ ] a\n## Verification\n",
			"1:0-1:3 error: the frontmatter must be a mapping of keys (title, status, created_at)\n"},
		{"status range skips quotes' comment", "---\ntitle: t\nstatus: 'wip' # later\n---\n## Files\n## Steps\n- [ ] a\n## Verification\n",
			"2:8-2:13 error: unknown status \"wip\": use draft, approved, implemented or archived\n"},
		{"utf-16 columns", "---\ntitle: t\nstatus: draft\n---\n## Files\n## Steps\n- [ ] 🎉 a\n- [ ] 🎉 A\n## Verification\n",
			"7:6-7:10 error: duplicate step \"🎉 A\" (first on line 7): merge the two, or say in each what is different\n"},
		{"heading needs its word first", "---\ntitle: t\nstatus: draft\n---\n## The files\n## Steps\n- [ ] a\n## Verifications\n",
			"0:0-0:3 warning: no '## Files' section: list each file the plan changes and what changes in it\n" +
				"0:0-0:3 warning: no '## Verification' section: say which commands or checks prove that the plan worked\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			diags := LintPlan(tt.text)
			checkRanges(t, tt.text, diags)
			if got := renderPlanDiagnostics(diags); got != tt.want {
				t.Errorf("LintPlan(%q) =\n%s\nwant\n%s", tt.text, got, tt.want)
			}
		})
	}
}

func TestYAMLErrorLine(t *testing.T) {
	tests := []struct {
		yaml string
		want int
	}{
		{"title: fine\nstatus: [draft\ncreated_at: x\n", 1}, // yaml.v3 says line 1 (the context)
		{"title: a\n\tstatus: b\n", 1},
		{"title: ok\n", -1}, // no error
	}
	for _, tt := range tests {
		if got := yamlErrorLine(tt.yaml); got != tt.want {
			t.Errorf("yamlErrorLine(%q) = %d, want %d", tt.yaml, got, tt.want)
		}
	}
}

// FuzzLintPlan checks that any text lints without panicking and with ranges
// inside the text.
func FuzzLintPlan(f *testing.F) {
	paths, _ := filepath.Glob("../testdata/plans/*.plan")
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b))
		}
	}
	f.Add("---\r\n\xff\r\n---\r\n- [ ] \xfe\r\n")
	f.Fuzz(func(t *testing.T, text string) {
		checkRanges(t, text, LintPlan(text))
	})
}
