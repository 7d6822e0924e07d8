package server

import (
	"context"
	"encoding/json"
	"fmt"

	"go.lsp.dev/jsonrpc2"

	"github.com/agentls/agentls/workspace"
)

// codeLens shows, on a `.plan` document: "Approve & Build" (approving the
// session that waits for this plan's approval, else starting a build session
// with the plan attached), "N/M steps done", and "Archive". An archived plan
// shows only its progress.
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
	lenses := []codeLens{}
	if ws == nil || mgr == nil {
		return lenses, nil
	}
	path, err := uriToPath(p.TextDocument.URI)
	if err != nil || !isPlanDoc(path) {
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
	archived := err == nil && plan.Meta != nil && plan.Meta.Status == workspace.PlanArchived
	done := plan.StepsDone()
	if id, ok := mgr.AwaitingApproval(wp.Rel); ok {
		lenses = append(lenses, newLens("Approve & Build", "agentls.approvePlan", map[string]string{"sessionId": id}))
	} else if !archived {
		lenses = append(lenses, newLens("Approve & Build", "agentls.buildPlan", map[string]string{"path": wp.Rel}))
	}
	lenses = append(lenses, newLens(fmt.Sprintf("%d/%d steps done", done, len(plan.Steps)), "", nil))
	if !archived {
		lenses = append(lenses, newLens("Archive", "agentls.archivePlan", map[string]string{"path": wp.Rel}))
	}
	return lenses, nil
}

// codeLens is an LSP CodeLens with its command (always resolved).
type codeLens struct {
	Range   workspace.Range `json:"range"`
	Command lensCommand     `json:"command"`
}

type lensCommand struct {
	Title     string            `json:"title"`
	Command   string            `json:"command"`
	Arguments []json.RawMessage `json:"arguments,omitempty"`
}

// newLens is a lens on the document's first line. command "" is a label
// that runs nothing; arg, if not nil, is the command's single argument.
func newLens(title, command string, arg map[string]string) codeLens {
	c := lensCommand{Title: title, Command: command}
	if arg != nil {
		b, _ := json.Marshal(arg) // a map of strings always encodes
		c.Arguments = []json.RawMessage{b}
	}
	return codeLens{Command: c}
}
