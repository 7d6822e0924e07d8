//go:build !unix

package checkpoint

// syncDisk does nothing where neither syncfs nor sync is available: the
// undo checkpoint is then as durable as every other.
func (s *Store) syncDisk() error { return nil }
