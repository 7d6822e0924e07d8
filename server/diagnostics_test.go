package server_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
	"github.com/agentls/agentls/workspace"
)

// This file proves the diagnostics (PROTOCOL.md §3 publishDiagnostics): the
// plan linter on open `.plan` documents (open, change, close, latest text
// wins) and the config file's problems on `.agentls.yaml`.

// published is a textDocument/publishDiagnostics as the editor received it.
type published struct {
	URI         string  `json:"uri"`
	Version     *int32  `json:"version"`
	Diagnostics []pDiag `json:"diagnostics"`
}

type pDiag struct {
	Range    workspace.Range `json:"range"`
	Severity int             `json:"severity"`
	Source   string          `json:"source"`
	Message  string          `json:"message"`
}

func (d pDiag) String() string {
	return fmt.Sprintf("%d:%d-%d:%d sev%d %s", d.Range.Start.Line, d.Range.Start.Character, d.Range.End.Line, d.Range.End.Character, d.Severity, d.Message)
}

// publishedFor decodes, in order, the diagnostics published for uri.
func publishedFor(ms []lspclient.Message, uri string) []published {
	var out []published
	for _, m := range ms {
		if m.Method != "textDocument/publishDiagnostics" {
			continue
		}
		var p published
		if json.Unmarshal(m.Params, &p) == nil && p.URI == uri {
			out = append(out, p)
		}
	}
	return out
}

// awaitPublished waits for the n-th (0-based) or a later publication for
// uri that satisfies match, and returns it with its index.
func awaitPublished(h *lsptest.Env, uri string, from int, match func(published) bool) (published, int) {
	h.T.Helper()
	var found published
	at := -1
	h.Await(lsptest.Expectation{
		Description: fmt.Sprintf("a matching publishDiagnostics for %s (publication %d or later)", uri, from),
		Check: func(s lsptest.State) lsptest.Verdict {
			pubs := publishedFor(s.Messages, uri)
			for i := from; i < len(pubs); i++ {
				if match(pubs[i]) {
					found, at = pubs[i], i
					return lsptest.Met
				}
			}
			return lsptest.Unmet
		},
	})
	return found, at
}

func hasVersion(v int32) func(published) bool {
	return func(p published) bool { return p.Version != nil && *p.Version == v }
}

func isCleared(p published) bool { return p.Version == nil && len(p.Diagnostics) == 0 }

// wantDiags fails unless the diagnostics are exactly want (rendered by String).
func wantDiags(t *testing.T, got []pDiag, want ...string) {
	t.Helper()
	var g []string
	for _, d := range got {
		if d.Source != "agentls" {
			t.Errorf("diagnostic %v: source %q, want agentls", d, d.Source)
		}
		g = append(g, d.String())
	}
	if strings.Join(g, "\n") != strings.Join(want, "\n") {
		t.Fatalf("diagnostics =\n%s\nwant\n%s", strings.Join(g, "\n"), strings.Join(want, "\n"))
	}
}

func TestPlanDiagnosticsOpenChangeClose(t *testing.T) {
	t.Parallel()
	const text = "---\ntitle: Diagnosed\nstatus: wip\n---\n## Files\n- a.go\n## Steps\n- [ ] Add a\n- [ ] add A\n## Verification\n- go test\n"
	h := lsptest.Start(t, lsptest.Setup{Files: map[string]string{"plans/d.plan": text, "notes.txt": "hello\n"}})
	uri := h.Editor.URI("plans/d.plan")
	if err := h.Editor.Open(h.Ctx, "notes.txt", "- [ ] not a plan\n"); err != nil {
		t.Fatal(err)
	}
	if err := h.Editor.Open(h.Ctx, "plans/d.plan", text); err != nil {
		t.Fatal(err)
	}
	p, _ := awaitPublished(h, uri, 0, hasVersion(1))
	wantDiags(t, p.Diagnostics,
		`2:8-2:11 sev1 unknown status "wip": use draft, approved, implemented or archived`,
		`8:6-8:11 sev1 duplicate step "add A" (first on line 8): merge the two, or say in each what is different`)

	// The user fixes the status: the diagnostics follow the buffer.
	if err := h.Editor.Change(h.Ctx, "plans/d.plan", workspace.TextEdit{Range: workspace.Range{Start: pos(2, 8), End: pos(2, 11)}, NewText: "draft"}); err != nil {
		t.Fatal(err)
	}
	p, at := awaitPublished(h, uri, 0, hasVersion(2))
	wantDiags(t, p.Diagnostics,
		`8:6-8:11 sev1 duplicate step "add A" (first on line 8): merge the two, or say in each what is different`)
	// And then the duplicate; a new style problem is a warning.
	if err := h.Editor.Change(h.Ctx, "plans/d.plan", workspace.TextEdit{Range: workspace.Range{Start: pos(8, 6), End: pos(8, 11)}, NewText: "Test a"}); err != nil {
		t.Fatal(err)
	}
	p, at = awaitPublished(h, uri, at+1, hasVersion(3))
	wantDiags(t, p.Diagnostics)
	if err := h.Editor.Change(h.Ctx, "plans/d.plan", workspace.TextEdit{Range: workspace.Range{Start: pos(9, 3), End: pos(9, 15)}, NewText: "Checks"}); err != nil {
		t.Fatal(err)
	}
	p, at = awaitPublished(h, uri, at+1, hasVersion(4))
	wantDiags(t, p.Diagnostics,
		`0:0-0:3 sev2 no '## Verification' section: say which commands or checks prove that the plan worked`)

	// Closing clears them.
	if err := h.Editor.CloseDocument(h.Ctx, "plans/d.plan"); err != nil {
		t.Fatal(err)
	}
	awaitPublished(h, uri, at+1, isCleared)
	if pubs := publishedFor(h.Editor.Messages(), h.Editor.URI("notes.txt")); len(pubs) != 0 {
		t.Fatalf("diagnostics published for a file that is not a plan: %+v", pubs)
	}
}

// TestPlanDiagnosticsLatestTextWins types fast into a plan: publications
// never go back in versions, and the one for the last version lints the
// buffer as the editor has it.
func TestPlanDiagnosticsLatestTextWins(t *testing.T) {
	t.Parallel()
	const head = "---\ntitle: Fast\nstatus: draft\n---\n## Steps\n"
	h := lsptest.Start(t, lsptest.Setup{})
	uri := h.Editor.URI("plans/fast.plan")
	if err := h.Editor.Open(h.Ctx, "plans/fast.plan", head); err != nil {
		t.Fatal(err)
	}
	const n = 300
	for i := range n {
		line := uint32(5 + i)
		step := fmt.Sprintf("- [ ] step %d\n", i%150) // the second half repeats the first
		if err := h.Editor.Change(h.Ctx, "plans/fast.plan", workspace.TextEdit{Range: workspace.Range{Start: pos(line, 0), End: pos(line, 0)}, NewText: step}); err != nil {
			t.Fatal(err)
		}
	}
	last := h.Editor.Version("plans/fast.plan")
	p, _ := awaitPublished(h, uri, 0, hasVersion(last))
	buffer, _ := h.Editor.Buffer("plans/fast.plan")
	want := workspace.LintPlan(buffer)
	if len(p.Diagnostics) != len(want) || len(want) != 150+2 {
		t.Fatalf("%d diagnostics for the last version, want %d (150 duplicates, 2 warnings)", len(p.Diagnostics), len(want))
	}
	for i, d := range want {
		if p.Diagnostics[i].Message != d.Message || p.Diagnostics[i].Range != d.Range {
			t.Fatalf("diagnostic %d = %v, want %+v", i, p.Diagnostics[i], d)
		}
	}
	if err := h.Editor.CloseDocument(h.Ctx, "plans/fast.plan"); err != nil {
		t.Fatal(err)
	}
	awaitPublished(h, uri, 0, isCleared)
	pubs := publishedFor(h.Editor.Messages(), uri)
	prev := int32(0)
	for i, p := range pubs[:len(pubs)-1] {
		if p.Version == nil || *p.Version < prev {
			t.Fatalf("publication %d has version %v after %d: order lost", i, p.Version, prev)
		}
		prev = *p.Version
	}
	if prev != last || !isCleared(pubs[len(pubs)-1]) {
		t.Fatalf("last publications: version %d then %+v, want %d then cleared", prev, pubs[len(pubs)-1], last)
	}
}

// TestConfigFileDiagnostics: a bad .agentls.yaml is reported on the file at
// start-up (beside the window/showMessage), then follows its buffer, and
// falls back to the file on disk when closed.
func TestConfigFileDiagnostics(t *testing.T) {
	t.Parallel()
	const bad = "model:\n  name: llama3.1\nedits: sometimes\n"
	h := lsptest.Start(t, lsptest.Setup{Files: map[string]string{".agentls.yaml": bad}})
	uri := h.Editor.URI(".agentls.yaml")
	onDisk := `2:7-2:16 sev1 edits: must be one of auto, client, disk`
	p, at := awaitPublished(h, uri, 0, func(published) bool { return true })
	if p.Version != nil {
		t.Fatalf("start-up diagnostics carry version %d", *p.Version)
	}
	wantDiags(t, p.Diagnostics, onDisk)
	shown := false
	for _, raw := range h.Messages("window/showMessage") {
		shown = shown || strings.Contains(string(raw), ".agentls.yaml:3:8: edits: must be one of auto, client, disk")
	}
	if !shown {
		t.Fatalf("no window/showMessage for the config error: %s", h.Messages("window/showMessage"))
	}

	if err := h.Editor.Open(h.Ctx, ".agentls.yaml", "edits: disk\n"); err != nil {
		t.Fatal(err)
	}
	p, at = awaitPublished(h, uri, at+1, hasVersion(1))
	wantDiags(t, p.Diagnostics)
	// A syntax error, then a schema error, each at its line.
	if err := h.Editor.Change(h.Ctx, ".agentls.yaml", workspace.TextEdit{Range: workspace.Range{Start: pos(1, 0), End: pos(1, 0)}, NewText: "plan_mode:\n  plans_dir: [plans\n"}); err != nil {
		t.Fatal(err)
	}
	p, at = awaitPublished(h, uri, at+1, hasVersion(2))
	if len(p.Diagnostics) != 1 || p.Diagnostics[0].Severity != 1 || p.Diagnostics[0].Range.Start.Line != 2 ||
		!strings.Contains(p.Diagnostics[0].Message, "YAML syntax error") {
		t.Fatalf("syntax error diagnostics = %v, want one error on line 2", p.Diagnostics)
	}
	if err := h.Editor.Change(h.Ctx, ".agentls.yaml", workspace.TextEdit{Range: workspace.Range{Start: pos(1, 0), End: pos(3, 0)}, NewText: "plan_mode: {approval_timeout_secs: -1}\n"}); err != nil {
		t.Fatal(err)
	}
	p, at = awaitPublished(h, uri, at+1, hasVersion(3))
	wantDiags(t, p.Diagnostics, `1:35-1:38 sev1 plan_mode.approval_timeout_secs: must be >= 1 (got -1)`)

	// Closed without saving: the file on disk is what counts again.
	if err := h.Editor.CloseDocument(h.Ctx, ".agentls.yaml"); err != nil {
		t.Fatal(err)
	}
	p, _ = awaitPublished(h, uri, at+1, func(p published) bool { return p.Version == nil })
	wantDiags(t, p.Diagnostics, onDisk)
}

// TestConfigFileDiagnosticsOnlyForTheConfig: a YAML file with the config's
// name elsewhere is not linted, and a good config publishes nothing at
// start-up.
func TestConfigFileDiagnosticsOnlyForTheConfig(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{Files: map[string]string{".agentls.yaml": "edits: disk\n", "sub/.agentls.yaml": "edits: sometimes\n", "plans/x.plan": ""}})
	if err := h.Editor.Open(h.Ctx, "sub/.agentls.yaml", "edits: sometimes\n"); err != nil {
		t.Fatal(err)
	}
	// A plan opened after it is linted after it (one queue, in order).
	if err := h.Editor.Open(h.Ctx, "plans/x.plan", ""); err != nil {
		t.Fatal(err)
	}
	awaitPublished(h, h.Editor.URI("plans/x.plan"), 0, hasVersion(1))
	for _, rel := range []string{".agentls.yaml", "sub/.agentls.yaml"} {
		if pubs := publishedFor(h.Editor.Messages(), h.Editor.URI(rel)); len(pubs) != 0 {
			t.Fatalf("diagnostics published for %s: %+v", rel, pubs)
		}
	}
}
