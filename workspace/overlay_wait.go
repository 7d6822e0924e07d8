package workspace

import (
	"context"
	"time"
)

// WaitReported waits, at most d and while ctx lasts, until the editor has
// reported abs again after an applied agent edit (VersionKnown), and
// returns its buffer's text and version then; known is false when it did
// not report in time or the document is not open.
func (o *Overlay) WaitReported(ctx context.Context, abs string, d time.Duration) (text string, version int32, known bool) {
	timer := time.NewTimer(d)
	defer timer.Stop()
	for {
		o.mu.RLock()
		doc, ok := o.docs[o.keyLocked(abs)]
		reported := o.reported
		if ok && doc.open && !doc.unreported {
			text, version = doc.text, doc.version
		}
		lost := ok && doc.lost != ""
		known = ok && doc.open && !doc.unreported && !lost
		o.mu.RUnlock()
		if known || !ok || !doc.open || lost {
			return text, version, known
		}
		select {
		case <-reported:
		case <-timer.C:
			return "", 0, false
		case <-ctx.Done():
			return "", 0, false
		}
	}
}

// reportedLocked wakes every WaitReported: the editor reported a
// document (open, change, close). o.mu is held for writing.
func (o *Overlay) reportedLocked() {
	if o.reported != nil {
		close(o.reported)
	}
	o.reported = make(chan struct{})
}
