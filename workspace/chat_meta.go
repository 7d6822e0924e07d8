package workspace

// Meta reads the metadata of one session (its .meta file, else its .chat
// frontmatter) without its messages: what another workspace's plan locks
// need to know whether the session still builds (guard.LockRegistry).
func (s *ChatStore) Meta(id string) (ChatMeta, error) {
	if err := ValidChatID(id); err != nil {
		return ChatMeta{}, err
	}
	return s.readMeta(id)
}
