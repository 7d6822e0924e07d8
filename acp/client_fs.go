package acp

// clientReads tells whether files are read through the client
// (fs/read_text_file): it offers the method and acp.client_fs is not off.
func (e *editor) clientReads() bool {
	return e.a.clientCaps().Fs.ReadTextFile && e.h.Config().ACP.ClientFS != "off"
}

// clientWrites tells whether edits may go through the client
// (fs/write_text_file): it offers the method and acp.client_fs is not off.
// Otherwise agentls writes the disk itself through the guarded path; every
// change still reaches the client as a diff in its tool call. With off,
// agentls needs none of the client's fs/* methods (ACP v2 drops them).
func (e *editor) clientWrites() bool {
	return e.a.clientCaps().Fs.WriteTextFile && e.h.Config().ACP.ClientFS != "off"
}
