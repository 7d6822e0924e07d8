package acp

import (
	"context"
	"encoding/json"
	"errors"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/workspace"
)

// errNoContent is an fs/read_text_file answered without a text `content`
// (`null`, `{}`, a number): an invalid answer, not an empty file. The SDK
// would decode it as "" and an edit computed on that text would replace
// the whole file.
var errNoContent = errors.New("the client answered fs/read_text_file without a text content")

// readThroughClient asks the client for p's text (fs/read_text_file,
// through the wire, which keeps the raw result): only a result whose
// `content` is a string counts.
func (e *editor) readThroughClient(ctx context.Context, sessionID string, p workspace.Path) (string, error) {
	var raw json.RawMessage
	if err := e.a.wire.call(ctx, "fs/read_text_file", sdk.ReadTextFileRequest{SessionId: sdk.SessionId(sessionID), Path: p.Abs}, &raw); err != nil {
		return "", err
	}
	var res struct {
		Content *string `json:"content"`
	}
	if json.Unmarshal(raw, &res) != nil || res.Content == nil {
		return "", errNoContent
	}
	return *res.Content, nil
}
