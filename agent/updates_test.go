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
	agentproto.MessageChunk{SessionUpdate: "agent_message_chunk", Content: agentproto.TextContent{Type: "text", Text: "Reading main.go"}, MessageID: "0190f3a2-7c1e-7d4b-9a1f-2b3c4d5e6f70"},
	agentproto.ToolCallStarted{SessionUpdate: "tool_call", ToolCallID: "call_1", Title: "read main.go", Kind: "read", Status: "pending", RawInput: json.RawMessage(`{"path":"main.go"}`)},
	UpdateToolCallDone{SessionUpdate: "tool_call_update", ToolCallID: "call_2", Status: "failed",
		Content:   []agentproto.ToolContent{{Type: "content", Content: agentproto.TextContent{Type: "text", Text: "System is in Plan Mode."}}},
		RawOutput: json.RawMessage(`{"success":false}`),
		Refusal:   &guard.Refusal{ToolName: "write", ToolKind: guard.KindFileEdit, Hint: "write a .plan", EnteredAt: "2026-01-02T03:04:05Z", EnteredReason: "default"}},
	agentproto.PlanUpdate{SessionUpdate: "plan", PlanFile: "plans/a.plan", Entries: []agentproto.PlanEntry{{Content: "Add the route", Priority: "medium", Status: "pending"}}},
	agentproto.ModeUpdate{SessionUpdate: "current_mode_update", CurrentModeID: agentproto.ModeBuild},
	UpdateQuestion{SessionUpdate: "question_pending", QuestionID: "q1", CreatedAt: "2026-01-02T03:04:05Z",
		Questions: []questions.Question{{Name: "db", Question: "Which database?", Schema: json.RawMessage(`{"type":"string","enum":["pg","sqlite"]}`)}}},
	agentproto.UsageUpdate{SessionUpdate: "usage_update", InputTokens: 1200, OutputTokens: 80, ContextTokens: 1400, ContextWindow: 128000},
	agentproto.InstructionsLoaded{SessionUpdate: "instructions_loaded", Files: []agentproto.InstructionFile{{Path: "AGENTS.md", Bytes: 1200}, {Path: "src/AGENTS.md", Bytes: 40000, Cut: true}}},
	agentproto.SessionInfoUpdate{SessionUpdate: "session_info_update", Title: "Add the route", UpdatedAt: "2026-01-02T03:04:05Z"},
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
// agent's own, which have IsSessionUpdate) has its row in wireUpdates, and
// so has each of the protocol's updates (agentproto/updates.go), by its
// sessionUpdate kind (the agent's own type stands for the protocol's where
// it replaces it, as UpdateToolCallDone does ToolCallDone), so a new
// update cannot skip the golden file.
func TestEveryUpdateHasAWireRow(t *testing.T) {
	t.Parallel()
	declared, _ := sessionUpdates(t, "updates.go")
	protocol, protocolKinds := sessionUpdates(t, "../agentproto/updates.go")
	var rows []string
	kinds := map[string]bool{}
	for _, u := range wireUpdates {
		rows = append(rows, reflect.TypeOf(u).Name())
		var k struct{ SessionUpdate string }
		line, _ := json.Marshal(u)
		if err := json.Unmarshal(line, &k); err != nil {
			t.Fatal(err)
		}
		kinds[k.SessionUpdate] = true
	}
	if len(declared) == 0 || len(protocol) == 0 || len(protocolKinds) != len(protocol) {
		t.Fatalf("update types found: agent %q, protocol %q with kinds %q", declared, protocol, protocolKinds)
	}
	for _, name := range declared {
		if !slices.Contains(rows, name) {
			t.Errorf("the agent's update %s has no row in wireUpdates", name)
		}
	}
	for name, ks := range protocolKinds {
		if !slices.ContainsFunc(ks, func(k string) bool { return kinds[k] }) {
			t.Errorf("the protocol's update %s (%q) has no row in wireUpdates", name, ks)
		}
	}
}

// sessionUpdates reads the Go file path: the types it gives an
// IsSessionUpdate method, and for each the sessionUpdate kinds its
// SessionUpdate field's `ts` tag names ('a' | 'b').
func sessionUpdates(t *testing.T, path string) (names []string, kinds map[string][]string) {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	tags := map[string]string{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Name.Name != "IsSessionUpdate" || d.Recv == nil {
				continue
			}
			if id, ok := d.Recv.List[0].Type.(*ast.Ident); ok {
				names = append(names, id.Name)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				ts, ok := spec.(*ast.TypeSpec)
				if !ok {
					continue
				}
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					continue
				}
				for _, fld := range st.Fields.List {
					if len(fld.Names) == 1 && fld.Names[0].Name == "SessionUpdate" && fld.Tag != nil {
						tags[ts.Name.Name] = reflect.StructTag(strings.Trim(fld.Tag.Value, "`")).Get("ts")
					}
				}
			}
		}
	}
	kinds = map[string][]string{}
	for _, n := range names {
		for _, k := range strings.Split(tags[n], "|") {
			if k = strings.Trim(strings.TrimSpace(k), "'"); k != "" {
				kinds[n] = append(kinds[n], k)
			}
		}
	}
	return names, kinds
}
