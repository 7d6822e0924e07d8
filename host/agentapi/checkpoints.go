package agentapi

import (
	"context"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/protoconv"
)

// Checkpoints are the checkpoints a session's turns took, as the editor's
// review reads them (docs/review.md).
type Checkpoints interface {
	ChangedFiles(ctx context.Context, sessionID, messageID string) ([]agentproto.ChangedFile, error)
	CheckpointFile(sessionID, messageID, path string) (agentproto.CheckpointFileText, error)
}

var checkpointHandlers = []Handler{
	handle(agentproto.ChangedFiles, changedFiles),
	handle(agentproto.CheckpointFile, checkpointFile),
}

// changedFiles is agent/changedFiles {sessionId, messageId}: the files
// that differ now from the checkpoint taken before that message ("Edited
// store.go +17 −2"; Keep / Undo per file).
func changedFiles(ctx context.Context, a Services, p agentproto.CheckpointParams) (agentproto.ChangedFilesResult, error) {
	files, err := a.ChangedFiles(ctx, p.SessionID, p.MessageID)
	return protoconv.ChangedFiles(files), err
}

// checkpointFile is agent/checkpointFile {sessionId, messageId, path}: the
// file as that checkpoint has it, for a diff against the file now.
func checkpointFile(_ context.Context, a Services, p agentproto.CheckpointFileParams) (agentproto.CheckpointFileText, error) {
	out, err := a.CheckpointFile(p.SessionID, p.MessageID, p.Path)
	return out, err
}
