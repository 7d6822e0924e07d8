package agent

import "time"

// metaTouchInterval is how often the end of a turn writes the session's
// metadata when nothing but its UpdatedAt changed: a model that answers in
// milliseconds (a local one, the benchmark's) would otherwise cost a file
// replacement per turn. Every other change is written at once; closing the
// session or agentls writes what is left, and a crash loses at most this
// much of UpdatedAt (docs/sessions.md).
const metaTouchInterval = 30 * time.Second

// touchMetaLocked stamps UpdatedAt at the end of a turn (s.mu held) and
// returns the function that stores it, which does nothing when a save of
// the metadata (a turn's end, the first prompt's title, a mode switch)
// stamped it less than metaTouchInterval ago.
func (s *Session) touchMetaLocked() func() {
	now := s.m.now()
	if since := now.Sub(s.metaTouchedAt); !s.metaTouchedAt.IsZero() && since >= 0 && since < metaTouchInterval {
		s.meta.UpdatedAt = now
		s.metaGen++
		return func() {}
	}
	s.metaTouchedAt = now
	return s.saveMetaLocked()
}

// flushMeta writes the metadata a recent turn's end left unwritten (a
// no-op when the file is current).
func (s *Session) flushMeta() {
	s.mu.Lock()
	gen, meta := s.metaGen, s.meta
	s.mu.Unlock()
	s.storeMeta(gen, meta)
}
