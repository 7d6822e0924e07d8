package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"go.lsp.dev/jsonrpc2"

	"github.com/agentls/agentls/workspace"
)

// codeLens shows, on a `.plan` document, "N/M steps done" and, while a
// session waits for its approval, "Approve & Build".
func (s *Server) codeLens(_ context.Context, raw jsonrpc2.RawMessage) (any, error) {
	var p struct {
		TextDocument struct {
			URI string `json:"uri"`
		} `json:"textDocument"`
	}
	if err := decodeParams(raw, &p); err != nil {
		return nil, err
	}
	ws, mgr := s.workspace(), s.manager()
	lenses := []any{}
	if ws == nil || mgr == nil || !strings.HasSuffix(p.TextDocument.URI, ".plan") {
		return lenses, nil
	}
	path, err := uriToPath(p.TextDocument.URI)
	if err != nil {
		return lenses, nil
	}
	wp, err := ws.Resolve(path)
	if err != nil {
		return lenses, nil
	}
	text, err := ws.ReadFile(wp)
	if err != nil {
		return lenses, nil
	}
	plan, err := workspace.ParsePlan(text)
	if err != nil {
		return lenses, nil
	}
	done := 0
	for _, st := range plan.Steps {
		if st.Done {
			done++
		}
	}
	top := map[string]any{"start": map[string]int{"line": 0, "character": 0}, "end": map[string]int{"line": 0, "character": 0}}
	if id, ok := mgr.AwaitingApproval(wp.Rel); ok {
		arg, _ := json.Marshal(map[string]string{"sessionId": id})
		lenses = append(lenses, map[string]any{"range": top, "command": map[string]any{
			"title": "Approve & Build", "command": "agentls.approvePlan", "arguments": []json.RawMessage{arg},
		}})
	}
	lenses = append(lenses, map[string]any{"range": top, "command": map[string]any{
		"title": fmt.Sprintf("%d/%d steps done", done, len(plan.Steps)), "command": "",
	}})
	return lenses, nil
}
