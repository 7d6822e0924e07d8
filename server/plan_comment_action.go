package server

import (
	"context"

	"go.lsp.dev/jsonrpc2"

	"github.com/agentls/agentls/workspace"
)

// codeAction offers, on a step of a `.plan` document (its line or one of
// its comments), "Comment on this step": a `> review: ` line inserted after
// the step's comments, for the user to write the comment (docs/review.md).
func (s *Server) codeAction(_ context.Context, raw jsonrpc2.RawMessage) (any, error) {
	var p struct {
		TextDocument struct {
			URI string `json:"uri"`
		} `json:"textDocument"`
		Range workspace.Range `json:"range"`
	}
	if err := decodeParams(raw, &p); err != nil {
		return nil, err
	}
	actions := []codeAction{}
	ws := s.workspace()
	if ws == nil {
		return actions, nil
	}
	_, text, ok := planDoc(ws, p.TextDocument.URI)
	if !ok {
		return actions, nil
	}
	if at, ok := commentInsertLine(text, int(p.Range.Start.Line)); ok {
		pos := workspace.Position{Line: uint32(at)}
		edit := workspace.TextEdit{Range: workspace.Range{Start: pos, End: pos}, NewText: "> review: \n"}
		actions = append(actions, codeAction{
			Title: "Comment on this step", Kind: "refactor.rewrite",
			Edit: map[string]any{"changes": map[string][]workspace.TextEdit{p.TextDocument.URI: {edit}}},
		})
	}
	return actions, nil
}

// codeAction is an LSP CodeAction carrying its edit.
type codeAction struct {
	Title string         `json:"title"`
	Kind  string         `json:"kind"`
	Edit  map[string]any `json:"edit"`
}

// commentInsertLine is the line a new comment on the step at line (or the
// step whose comments line is among) goes to: after its last comment.
func commentInsertLine(text string, line int) (int, bool) {
	plan, _ := workspace.ParsePlan(text)
	step := -1
	for i, st := range plan.Steps {
		if st.Line == line {
			step = i
		}
	}
	comments := workspace.PlanComments(text)
	for _, c := range comments {
		if c.Line == line && c.Step >= 0 {
			step = c.Step
		}
	}
	if step < 0 {
		return 0, false
	}
	at := plan.Steps[step].Line + 1
	for _, c := range comments {
		if c.Step == step && c.Line+1 > at {
			at = c.Line + 1
		}
	}
	return at, true
}
