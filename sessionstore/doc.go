// Package sessionstore is the session store: a session's `.chat` file
// (frontmatter, then one JSON message a line, appended), its `.meta` file
// (the metadata, replaced atomically), its `.approved` file (the approved
// plan's text) and its `.lock` file (flock: one process drives a session;
// Disown and Release give it up), all under `.agentls/chats`. It reads and
// writes the disk directly: session files are agentls's own state, never
// the editor's open buffers (workspace's overlay). docs/sessions.md
// describes the files.
package sessionstore
