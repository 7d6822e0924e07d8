package agentproto

// Review of BUILD edits and their checkpoints (docs/review.md).

// SetReviewParams are agent/setReview's params.
type SetReviewParams struct {
	SessionID string `json:"sessionId"`
	// Review is "off" or "edits".
	Review string `json:"review" ts:"'off' | 'edits'" lua:"'off'|'edits'"`
}

// ReviewInfo is agent/setReview's result: the session's review mode now.
type ReviewInfo struct {
	SessionID string `json:"sessionId"`
	Review    string `json:"review" ts:"'off' | 'edits'" lua:"'off'|'edits'"`
}

// CheckpointParams name the checkpoint taken before a message.
type CheckpointParams struct {
	SessionID string `json:"sessionId"`
	MessageID string `json:"messageId"`
}

// CheckpointFileParams name a file of the checkpoint taken before a
// message.
type CheckpointFileParams struct {
	SessionID string `json:"sessionId"`
	MessageID string `json:"messageId"`
	// Path is workspace-relative with "/" (absolute for a file of another
	// workspace folder).
	Path string `json:"path"`
}

// ChangedFilesResult is agent/changedFiles's result.
type ChangedFilesResult struct {
	Files []ChangedFile `json:"files"`
}

// ChangedFile is a file that differs now from a checkpoint ("Edited
// store.go +17 −2").
type ChangedFile struct {
	Path string `json:"path"`
	// Status is "modified", "added" (not in the checkpoint) or "deleted"
	// (not on disk now).
	Status string `json:"status" ts:"'modified' | 'added' | 'deleted'" lua:"'modified'|'added'|'deleted'"`
	// Added and Removed count the lines; zero when the file is not
	// restorable.
	Added   int `json:"added"`
	Removed int `json:"removed"`
	// Restorable is false for a binary file or one over 1 MiB.
	Restorable bool `json:"restorable"`
}

// CheckpointFileText is agent/checkpointFile's result: the file as the
// checkpoint has it.
type CheckpointFileText struct {
	Path string `json:"path"`
	// Exists is false when the file was not there at the checkpoint.
	Exists bool `json:"exists"`
	// Text is its content (absent when it does not exist or is not kept).
	Text *string `json:"text,omitempty"`
	// Restorable is false when the checkpoint lists it but did not keep it.
	Restorable bool `json:"restorable"`
}
