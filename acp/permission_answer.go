package acp

import (
	"context"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	sdk "github.com/coder/acp-go-sdk"
)

// askPermission sends session/request_permission through the wire, which
// keeps the raw result, and reads the outcome strictly: `selected` with an
// option id, or `cancelled`. Anything else (`null`, `{}`, a misspelt
// outcome, a selection without its id) is an invalid answer and an error
// saying what came — the SDK would read most of them as `cancelled`, and a
// client's bug would cancel every turn without a word.
func (e *editor) askPermission(ctx context.Context, req sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	var raw json.RawMessage
	if err := e.a.wire.call(ctx, "session/request_permission", req, &raw); err != nil {
		return sdk.RequestPermissionResponse{}, err
	}
	var res struct {
		Outcome *struct {
			Outcome  string  `json:"outcome"`
			OptionID *string `json:"optionId"`
		} `json:"outcome"`
	}
	if json.Unmarshal(raw, &res) == nil && res.Outcome != nil {
		switch o := res.Outcome; {
		case o.Outcome == "cancelled":
			return sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{Cancelled: &sdk.RequestPermissionOutcomeCancelled{}}}, nil
		case o.Outcome == "selected" && o.OptionID != nil:
			return sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{Selected: &sdk.RequestPermissionOutcomeSelected{OptionId: sdk.PermissionOptionId(*o.OptionID)}}}, nil
		}
	}
	return sdk.RequestPermissionResponse{}, fmt.Errorf(`the client answered session/request_permission without a valid outcome ("selected" with an optionId, or "cancelled"): %s`, cut(string(raw), 200))
}

// cut shortens s to at most n bytes for a message, marking the cut.
func cut(s string, n int) string {
	if s == "" {
		s = "(no result)"
	}
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
