package agent

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/internal/golden"
	"github.com/agentls/agentls/questions"
)

// wireUpdates is one value of each Update type, as a face sends it.
var wireUpdates = []Update{
	UpdateChunk{SessionUpdate: "agent_message_chunk", Content: TextContent{Type: "text", Text: "Reading main.go"}, MessageID: "0190f3a2-7c1e-7d4b-9a1f-2b3c4d5e6f70"},
	UpdateToolCall{SessionUpdate: "tool_call", ToolCallID: "call_1", Title: "read main.go", Kind: "read", Status: "pending", RawInput: json.RawMessage(`{"path":"main.go"}`)},
	UpdateToolCallDone{SessionUpdate: "tool_call_update", ToolCallID: "call_2", Status: "failed",
		Content:   []ToolContent{{Type: "content", Content: TextContent{Type: "text", Text: "System is in Plan Mode."}}},
		RawOutput: json.RawMessage(`{"success":false}`),
		Refusal:   &guard.Refusal{ToolName: "write", ToolKind: guard.KindFileEdit, Hint: "write a .plan", EnteredAt: "2026-01-02T03:04:05Z", EnteredReason: "default"}},
	UpdatePlan{SessionUpdate: "plan", PlanFile: "plans/a.plan", Entries: []PlanEntry{{Content: "Add the route", Priority: "medium", Status: "pending"}}},
	UpdateMode{SessionUpdate: "current_mode_update", CurrentModeID: agentproto.ModeBuild},
	UpdateQuestion{SessionUpdate: "question_pending", QuestionID: "q1", CreatedAt: "2026-01-02T03:04:05Z",
		Questions: []questions.Question{{Name: "db", Question: "Which database?", Schema: json.RawMessage(`{"type":"string","enum":["pg","sqlite"]}`)}}},
	UpdateUsage{SessionUpdate: "usage_update", InputTokens: 1200, OutputTokens: 80, ContextTokens: 1400, ContextWindow: 128000},
	UpdateInstructions{SessionUpdate: "instructions_loaded", Files: []InstructionFile{{Path: "AGENTS.md", Bytes: 1200}, {Path: "src/AGENTS.md", Bytes: 40000, Cut: true}}},
	UpdateSessionInfo{SessionUpdate: "session_info_update", Title: "Add the route", UpdatedAt: "2026-01-02T03:04:05Z"},
}

// TestUpdateWireGolden: the JSON of each update, as the LSP face sends it
// in `agent/update` (sessionId + update), stays byte for byte what
// testdata/updates.golden.jsonl says.
func TestUpdateWireGolden(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for _, u := range wireUpdates {
		line, err := json.Marshal(map[string]any{"sessionId": "s1", "update": u})
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	golden.Check(t, "testdata/updates.golden.jsonl", b.String())
}

// TestEveryUpdateHasAWireRow: each update type updates.go declares (the
// agent's own, which have IsSessionUpdate, and the protocol's under an
// Update* name) has its row in wireUpdates, so a new update cannot skip the
// golden file.
func TestEveryUpdateHasAWireRow(t *testing.T) {
	t.Parallel()
	f, err := parser.ParseFile(token.NewFileSet(), "updates.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var declared []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Name.Name != "IsSessionUpdate" || d.Recv == nil {
				continue
			}
			if id, ok := d.Recv.List[0].Type.(*ast.Ident); ok {
				declared = append(declared, id.Name)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				ts, ok := spec.(*ast.TypeSpec)
				if !ok || !ts.Assign.IsValid() || !strings.HasPrefix(ts.Name.Name, "Update") || ts.Name.Name == "Update" {
					continue
				}
				if sel, ok := ts.Type.(*ast.SelectorExpr); ok {
					declared = append(declared, sel.Sel.Name) // an alias has the protocol type's name
				}
			}
		}
	}
	var rows []string
	for _, u := range wireUpdates {
		rows = append(rows, reflect.TypeOf(u).Name())
	}
	slices.Sort(declared)
	slices.Sort(rows)
	if len(declared) == 0 || !slices.Equal(declared, rows) {
		t.Fatalf("update types declared %q, rows in wireUpdates %q", declared, rows)
	}
}
