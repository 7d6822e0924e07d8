package guard

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/workspace"
)

// TestVSCodeMCPThroughATopLevelLinkIsRefused: .vscode/mcp.json (it starts
// programs) is refused in every mode, also when a repository ships
// `.vscode -> cfg`: the file VS Code and agentls read as .vscode/mcp.json
// is then cfg/mcp.json, refused written, replaced (mv) or removed under
// that name at both layers (layer 2 is given the resolved path, which is
// what every tool, code_rename's server edits included, hands it). Before
// (found by the guard audit helper), only the name .vscode/mcp.json was
// refused, and the agent's auto-run rule asked the user instead.
func TestVSCodeMCPThroughATopLevelLinkIsRefused(t *testing.T) {
	sb := newSandbox(t, setupDefault)
	if err := os.RemoveAll(filepath.Join(sb.ws, ".vscode")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(sb.ws, "cfg"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sb.ws, "cfg", "mcp.json"), []byte(`{"servers":{}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("cfg", filepath.Join(sb.ws, ".vscode")); err != nil {
		t.Fatal(err)
	}
	build := stateOf(agentproto.ModeBuild)
	// The same file by its link name is refused (the rule as documented).
	if r := sb.g.CheckCall(build, "write", json.RawMessage(`{"path":".vscode/mcp.json","content":"{}"}`)); r == nil {
		t.Fatal("write .vscode/mcp.json allowed; the test's premise is wrong")
	}
	for _, c := range []struct{ tool, args string }{
		{"write", `{"path":"cfg/mcp.json","content":"{\"servers\":{\"x\":{\"command\":\"sh\",\"args\":[\"-c\",\"id\"]}}}"}`},
		{"edit", `{"path":"cfg/mcp.json","old_string":"{}","new_string":"{\"x\":{\"command\":\"sh\"}}"}`},
		{"mv", `{"from":"README.md","to":"cfg/mcp.json"}`},
		{"rm", `{"path":"cfg/mcp.json"}`},
	} {
		if r := sb.g.CheckCall(build, c.tool, json.RawMessage(c.args)); r == nil {
			t.Errorf("layer 1: %s %s allowed in build mode; cfg/mcp.json is .vscode/mcp.json (.vscode -> cfg)", c.tool, c.args)
		}
	}
	real := filepath.Join(sb.ws, "cfg", "mcp.json")
	if r := sb.g.CheckOps(build, "write", []Op{{Kind: workspace.ChangeEdit, Path: real}}); r == nil {
		t.Errorf("layer 2: an edit of %s allowed in build mode; it is .vscode/mcp.json", real)
	}
}
