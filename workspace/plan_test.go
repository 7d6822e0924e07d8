package workspace

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/golden"
)

// planGolden is what testdata/plans/*.json record for each .plan.
type planGolden struct {
	Meta     *PlanMeta         `json:"meta"`
	Valid    bool              `json:"status_valid"`
	KeyLines map[string]int    `json:"key_lines,omitempty"`
	Body     string            `json:"body"`
	BodyLine int               `json:"body_line"`
	Steps    []PlanStep        `json:"steps"`
	Error    *FrontmatterError `json:"error,omitempty"`
}

func TestParsePlanGolden(t *testing.T) {
	paths, err := filepath.Glob("testdata/plans/*.plan")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no plans: %v", err)
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			text, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			plan, err := ParsePlan(string(text))
			g := planGolden{Meta: plan.Meta, KeyLines: plan.KeyLines, Body: plan.Body, BodyLine: plan.BodyLine, Steps: plan.Steps}
			if plan.Meta != nil {
				g.Valid = plan.Meta.Status.Valid()
			}
			if err != nil {
				var fe *FrontmatterError
				if !errors.As(err, &fe) {
					t.Fatalf("error is not a *FrontmatterError: %v", err)
				}
				g.Error = fe
			}
			got, err := json.MarshalIndent(g, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, strings.TrimSuffix(p, ".plan")+".json", string(got)+"\n")
		})
	}
}

func TestParsePlanStepLinesAreFileLines(t *testing.T) {
	text := "---\ntitle: t\n---\nintro\n- [ ] a\n"
	p, err := ParsePlan(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Steps) != 1 || p.Steps[0].Line != 4 || p.BodyLine != 3 || p.Body != "intro\n- [ ] a\n" {
		t.Errorf("plan = %+v", p)
	}
	lines := strings.Split(text, "\n")
	if !strings.Contains(lines[p.Steps[0].Line], "[ ] a") {
		t.Error("Step.Line does not point at the step")
	}
}

func TestSetPlanStatus(t *testing.T) {
	tests := []struct {
		name, in string
		status   agentproto.PlanStatus
		want     string
	}{
		{"replace, keep the comment and spacing",
			"---\ntitle: T\nstatus: draft          # draft | approved\ncreated_at: 2025-01-15T10:30:00Z\n---\nbody\n",
			agentproto.PlanApproved,
			"---\ntitle: T\nstatus: approved          # draft | approved\ncreated_at: 2025-01-15T10:30:00Z\n---\nbody\n"},
		{"quoted value", "---\nstatus: 'draft'\n---\n", agentproto.PlanArchived, "---\nstatus: archived\n---\n"},
		{"empty value", "---\nstatus:\ntitle: x\n---\n", agentproto.PlanDraft, "---\nstatus: draft\ntitle: x\n---\n"},
		{"missing: added after the title", "---\ntitle: T\ncreated_at: 2025-01-15\n---\nbody", agentproto.PlanImplemented,
			"---\ntitle: T\nstatus: implemented\ncreated_at: 2025-01-15\n---\nbody"},
		{"missing, no title: added at the end", "---\nowner: me\n---\n", agentproto.PlanDraft, "---\nowner: me\nstatus: draft\n---\n"},
		{"no frontmatter: one is added", "# Legacy\n- [ ] x\n", agentproto.PlanApproved, "---\nstatus: approved\n---\n# Legacy\n- [ ] x\n"},
		{"CRLF kept", "---\r\ntitle: T\r\nstatus: draft\r\n---\r\nb\r\n", agentproto.PlanApproved, "---\r\ntitle: T\r\nstatus: approved\r\n---\r\nb\r\n"},
		{"CRLF, added", "---\r\ntitle: T\r\n---\r\n", agentproto.PlanApproved, "---\r\ntitle: T\r\nstatus: approved\r\n---\r\n"},
		{"nested status key untouched", "---\nmeta:\n  status: x\ntitle: T\n---\n", agentproto.PlanDraft, "---\nmeta:\n  status: x\ntitle: T\nstatus: draft\n---\n"},
		{"status in the body untouched", "---\nstatus: draft\n---\nstatus: draft\n", agentproto.PlanApproved, "---\nstatus: approved\n---\nstatus: draft\n"},
		{"single-quoted key, CRLF", "---\r\n'status': 'draft' # c\r\n---\r\n", agentproto.PlanApproved, "---\r\n'status': approved # c\r\n---\r\n"},
		{"quoted value over two lines", "---\nstatus: \"dr\n  aft\"\ntitle: T\n---\n", agentproto.PlanApproved, "---\nstatus: approved\ntitle: T\n---\n"},
		{"plain value on the next line", "---\nstatus:\n  draft # c\ntitle: T\n---\n", agentproto.PlanApproved, "---\nstatus:\n  approved # c\ntitle: T\n---\n"},
		{"block scalar", "---\nstatus: |\n  draft\n\ntitle: T\n---\n", agentproto.PlanApproved, "---\nstatus: approved\n\ntitle: T\n---\n"},
		{"after a title's block scalar and its comment-like line", "---\ntitle: >\n  T\n  # in the title\n# a comment\nowner: me\n---\n", agentproto.PlanApproved,
			"---\ntitle: >\n  T\n  # in the title\nstatus: approved\n# a comment\nowner: me\n---\n"},
		{"no title: after the last key's value", "---\nowner: me\ntags:\n  - a\n\n# end\n---\n", agentproto.PlanDraft, "---\nowner: me\ntags:\n  - a\nstatus: draft\n\n# end\n---\n"},
		{"indented mapping", "---\n  title: T\n---\n", agentproto.PlanDraft, "---\n  title: T\n  status: draft\n---\n"},
		{"only comments", "---\n# nothing yet\n---\n", agentproto.PlanDraft, "---\n# nothing yet\nstatus: draft\n---\n"},
		{"multi-byte title before the status", "---\ntitle: \"Café ☕\"\nstatus: draft\n---\n", agentproto.PlanApproved, "---\ntitle: \"Café ☕\"\nstatus: approved\n---\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SetPlanStatus(tt.in, tt.status)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("SetPlanStatus =\n%q\nwant\n%q", got, tt.want)
			}
			p, err := ParsePlan(got)
			if err != nil || p.Meta == nil || p.Meta.Status != tt.status {
				t.Errorf("the result does not parse to status %s: %+v %v", tt.status, p.Meta, err)
			}
		})
	}
	if _, err := SetPlanStatus("---\n", agentproto.PlanDraft); err == nil {
		t.Error("an unclosed frontmatter must be an error")
	}
	if _, err := SetPlanStatus("---\n{title: T, status: draft}\n---\n", agentproto.PlanApproved); err == nil || !strings.Contains(err.Error(), "flow style") {
		t.Errorf("a flow-style frontmatter must be refused with its reason: %v", err)
	}
	if _, err := SetPlanStatus("---\ntitle: T\ntitle: U\n---\n", agentproto.PlanApproved); err == nil || !strings.Contains(err.Error(), "repeated") {
		t.Errorf("a frontmatter ParsePlan refuses must be refused the same way: %v", err)
	}
	if _, err := SetPlanStatus("x", "wip"); err == nil || !strings.Contains(err.Error(), "unknown plan status") {
		t.Errorf("invalid status: %v", err)
	}
}

// TestPlanSteps: the steps are the checkboxes of every list style ("-",
// "*", "1."), ticked with "x" or "X", outside fenced code and the frontmatter.
func TestPlanSteps(t *testing.T) {
	tests := []struct {
		text string
		want []PlanStep
	}{
		{"---\ntitle: t\n---\n- [ ] a\n```\n- [ ] code\n```\n  * [X] b\n1. [x] c\n", []PlanStep{
			{Line: 3, Text: "a"}, {Line: 7, Text: "b", Done: true}, {Line: 8, Text: "c", Done: true},
		}},
		{"---\nnote: \"- [ ] x\"\n---\n- [ ] real\n", []PlanStep{{Line: 3, Text: "real"}}},
	}
	for _, tt := range tests {
		p, err := ParsePlan(tt.text)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(p.Steps, tt.want) {
			t.Errorf("ParsePlan(%q).Steps = %+v, want %+v", tt.text, p.Steps, tt.want)
		}
	}
}

func TestRenderPlan(t *testing.T) {
	at := time.Date(2025, 1, 15, 11, 30, 0, 123456789, time.FixedZone("CET", 3600))
	got := RenderPlan(PlanMeta{Title: "Fix: the \"parser\" # now", Status: agentproto.PlanApproved, CreatedAt: at}, "# Goal\n- [ ] x")
	want := "---\ntitle: 'Fix: the \"parser\" # now'\nstatus: approved\ncreated_at: 2025-01-15T10:30:00Z\n---\n# Goal\n- [ ] x\n"
	if got != want {
		t.Errorf("RenderPlan =\n%s\nwant\n%s", got, want)
	}
	p, err := ParsePlan(got)
	if err != nil {
		t.Fatal(err)
	}
	if p.Meta.Title != "Fix: the \"parser\" # now" || p.Meta.Status != agentproto.PlanApproved || !p.Meta.CreatedAt.Equal(at.Truncate(time.Second)) ||
		p.Body != "# Goal\n- [ ] x\n" || len(p.Steps) != 1 {
		t.Errorf("round trip: %+v %+v", p.Meta, p)
	}
	if got := RenderPlan(PlanMeta{Title: "t"}, ""); got != "---\ntitle: t\nstatus: draft\n---\n" {
		t.Errorf("defaults: %q", got)
	}
	long := strings.Repeat("word ", 40)
	if p, err := ParsePlan(RenderPlan(PlanMeta{Title: long}, "")); err != nil || p.Meta.Title != long {
		t.Errorf("long title: %v", err)
	}
}

func TestPlanStatusValid(t *testing.T) {
	for _, s := range PlanStatuses {
		if !s.Valid() {
			t.Errorf("%s should be valid", s)
		}
	}
	for _, s := range []agentproto.PlanStatus{"", "Draft", "wip"} {
		if s.Valid() {
			t.Errorf("%q should be invalid", s)
		}
	}
}

func TestNewPlanName(t *testing.T) {
	if len(adjectives) < 150 || len(nouns) < 150 {
		t.Fatalf("word lists too short: %d adjectives, %d nouns", len(adjectives), len(nouns))
	}
	word := regexp.MustCompile(`^[a-z]+$`)
	for _, list := range [][]string{adjectives, nouns} {
		seen := map[string]bool{}
		for _, w := range list {
			if !word.MatchString(w) || seen[w] {
				t.Errorf("bad or repeated word %q", w)
			}
			seen[w] = true
		}
	}
	r := rand.New(rand.NewPCG(42, 42))
	taken := map[string]bool{}
	shape := regexp.MustCompile(`^[a-z]+-[a-z]+-[a-z]+$`)
	for range 10000 {
		name := NewPlanName(r, func(n string) bool { return taken[n] })
		if taken[name] {
			t.Fatalf("NewPlanName returned the taken name %q", name)
		}
		if !shape.MatchString(name) {
			t.Fatalf("name %q is not adjective-noun-noun", name)
		}
		parts := strings.Split(name, "-")
		if parts[1] == parts[2] {
			t.Fatalf("name %q repeats its noun", name)
		}
		taken[name] = true
	}
	// Determinism with a seeded source.
	a := NewPlanName(rand.New(rand.NewPCG(1, 1)), nil)
	b := NewPlanName(rand.New(rand.NewPCG(1, 1)), nil)
	if a != b {
		t.Errorf("same seed, different names: %s %s", a, b)
	}
	if NewPlanName(nil, nil) == "" {
		t.Error("nil rng must work")
	}
	// When every random draw is taken, a numbered name is returned.
	first := ""
	name := NewPlanName(rand.New(rand.NewPCG(5, 5)), func(n string) bool {
		if first == "" {
			first = n
		}
		return !strings.HasSuffix(n, "-3")
	})
	if !strings.HasSuffix(name, "-3") {
		t.Errorf("fallback name = %q", name)
	}
}

func TestFrontmatterErrors(t *testing.T) {
	tests := []struct {
		text string
		line int
		msg  string
	}{
		{"---\ntitle: [a, b]\n---\n", 1, "expected a single value"},
		{"---\ntitle: ok\nstatus: {a: 1}\n---\n", 2, "expected a single value"},
		{"---\ntitle: x\n\tbad: tab\n---\n", 2, "invalid YAML"},
	}
	for _, tt := range tests {
		_, err := ParsePlan(tt.text)
		var fe *FrontmatterError
		if !errors.As(err, &fe) || fe.Line != tt.line || !strings.Contains(fe.Msg, tt.msg) {
			t.Errorf("ParsePlan(%q) error = %#v, want line %d %q", tt.text, err, tt.line, tt.msg)
			continue
		}
		if want := fmt.Sprintf("frontmatter line %d: ", tt.line+1); !strings.HasPrefix(err.Error(), want) {
			t.Errorf("Error() = %q, want the 1-based line first", err.Error())
		}
	}
}
