package sessionstore

// Meta reads the metadata of one session (its .meta file, else its .chat
// frontmatter) without its messages: what another workspace's plan locks
// need to know whether the session still builds (guard.LockRegistry).
func (s *Store) Meta(id string) (Meta, error) {
	if err := ValidID(id); err != nil {
		return Meta{}, err
	}
	return s.readMeta(id)
}
