package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/intel"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/workspace"
)

// statusSource is a language-intelligence source known only by its
// Status (the fallback of intel.ServedTypes).
type statusSource struct{ serving []agentproto.LanguageServing }

func (s statusSource) Serves(string) bool { return false }
func (s statusSource) Diagnostics(context.Context, []string) (intel.Snapshot, error) {
	return intel.Snapshot{}, nil
}
func (s statusSource) Definition(context.Context, string, workspace.Position) ([]intel.Location, error) {
	return nil, nil
}
func (s statusSource) References(context.Context, string, workspace.Position) ([]intel.Location, error) {
	return nil, nil
}
func (s statusSource) Hover(context.Context, string, workspace.Position) (string, error) {
	return "", nil
}
func (s statusSource) Symbols(context.Context, string, string) ([]intel.Symbol, error) {
	return nil, nil
}
func (s statusSource) Rename(context.Context, string, workspace.Position, string) (intel.FileEdits, error) {
	return nil, nil
}
func (s statusSource) Status() []agentproto.LanguageServing { return s.serving }

// listerSource lists its types itself (as the pool does).
type listerSource struct {
	statusSource
	types []string
}

func (s listerSource) ServedTypes() []string { return s.types }

// TestLanguageToolsOfferedForServedTypes: code and rename are offered only
// when a source serves some file type, and their descriptions name the
// served types (and only those) with their extensions.
func TestLanguageToolsOfferedForServedTypes(t *testing.T) {
	goOnly := statusSource{serving: []agentproto.LanguageServing{{FileType: "go", Source: "pool"}, {FileType: "rust", Source: "none", Detail: "rust-analyzer not found on PATH"}}}
	tests := []struct {
		name    string
		src     LanguageIntel
		source  string // lsp.source
		offered bool
		names   []string // in the descriptions
		notIn   []string // never in them
	}{
		{name: "no source", src: nil, source: "auto"},
		{name: "a source serving nothing", src: statusSource{serving: []agentproto.LanguageServing{{FileType: "go", Source: "none"}}}, source: "auto"},
		{name: "a pool whose servers all failed", src: listerSource{types: nil}, source: "auto"},
		{name: "go served", src: goOnly, source: "auto", offered: true, names: []string{"go (.go)"}, notIn: []string{"rust", "typescript", "python"}},
		{name: "go served but lsp.source off", src: goOnly, source: "off"},
		{name: "the pool's own list", src: listerSource{types: []string{"python", "typescript"}}, source: "pool", offered: true,
			names: []string{"python (.py .pyi)", "typescript (.cjs .cts .js .jsx .mjs .mts .ts .tsx)"}, notIn: []string{"go ("}},
		{name: "the editor's typescriptreact counts as typescript, once", src: statusSource{serving: []agentproto.LanguageServing{{FileType: "typescript", Source: "editor"}, {FileType: "typescriptreact", Source: "editor"}}}, source: "editor", offered: true,
			names: []string{"Only for these file types: typescript ("}, notIn: []string{"; typescript"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, _ := newTestManager(t, "name: idle\nsteps:\n  - text: hi\n", &memEditor{}, func(c *config.Config) { c.LSP.Source = tc.source })
			m.intel = tc.src
			s := newTestSession(t, m, "build")
			got := map[string]string{}
			for _, spec := range s.withoutIntelTools(s.tools().Offered(agentproto.ModeBuild)) {
				got[spec.Name] = spec.Description
			}
			for _, name := range []string{"code", "rename"} {
				desc, ok := got[name]
				if ok != tc.offered {
					t.Fatalf("%s offered = %v, want %v", name, ok, tc.offered)
				}
				for _, w := range tc.names {
					if !strings.Contains(desc, w) {
						t.Errorf("%s's description %q lacks %q", name, desc, w)
					}
				}
				for _, w := range tc.notIn {
					if strings.Contains(desc, w) {
						t.Errorf("%s's description %q names %q, which is not served", name, desc, w)
					}
				}
			}
			if _, ok := got["read"]; !ok {
				t.Fatal("read is no longer offered")
			}
		})
	}
}
