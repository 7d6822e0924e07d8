package expect

import "sync"

// Log is a list a harness's state is made of (the messages received, the
// prompt calls made), safe for concurrent use, that tells a wait when it
// changes. The zero Log is ready.
type Log[T any] struct {
	mu      sync.Mutex
	items   []T
	changed chan struct{} // closed and replaced on each change
}

// Add appends item and returns its index.
func (l *Log[T]) Add(item T) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.items = append(l.items, item)
	l.signal()
	return len(l.items) - 1
}

// Set replaces the item at index i (a call that returned).
func (l *Log[T]) Set(i int, item T) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.items[i] = item
	l.signal()
}

// Snapshot is a copy of the items now and a channel closed on the next
// change.
func (l *Log[T]) Snapshot() ([]T, <-chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.changed == nil {
		l.changed = make(chan struct{})
	}
	return append([]T(nil), l.items...), l.changed
}

// signal wakes the waits on the log; l.mu is held.
func (l *Log[T]) signal() {
	if l.changed != nil {
		close(l.changed)
	}
	l.changed = make(chan struct{})
}
