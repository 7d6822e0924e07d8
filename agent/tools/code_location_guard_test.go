package tools

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/intel"
	"github.com/agentls/agentls/workspace"
)

// TestCodeLocationDoesNotReadAgentlsConfiguration: the configuration
// known by path (the --config file, which may hold model.api_key and MCP
// servers' tokens) is refused to every read-only tool "and any tool's
// declared path argument" (docs/guard.md, "No reads either"), and the
// language servers' sandbox cannot read it. But a location a language
// server answers (definition, references) is quoted with its line's text,
// read by agentls itself: a server pointing into that file (a hostile one,
// or one misled by a repository's source map or line directive) hands its
// lines to the model. The location may be named; its text must not be.
func TestCodeLocationDoesNotReadAgentlsConfiguration(t *testing.T) {
	e := newIntelFake(t)
	cfgFile := filepath.Join(e.ws.Root(), "agentls-local.yaml")
	writeFile(t, cfgFile, "model:\n  api_key: sk-live-SECRET-1234\n")
	e.g = e.g.WithConfig(cfgFile)
	if r := e.g.CheckCall(e.State(), "read", json.RawMessage(`{"path":"agentls-local.yaml"}`)); r == nil {
		t.Fatal("rig: the guard lets read open the configuration file")
	}
	e.src.locs = []intel.Location{{Path: cfgFile, Range: workspace.Range{Start: workspace.Position{Line: 1, Character: 2}}}}
	for _, op := range []string{"definition", "references"} {
		args := `{"op":"` + op + `","path":"a.go","line":3,"symbol":"hello"}`
		if r := e.g.CheckCall(e.State(), "code", json.RawMessage(args)); r != nil {
			t.Fatalf("rig: code %s refused: %v", op, r)
		}
		res := call(t, codeTool, e, args)
		if strings.Contains(res.JSON(), "SECRET") {
			t.Errorf("code %s = %s: the configuration's line reached the model", op, res.JSON())
		}
	}
}
