package server

import "sync"

// keyedQueue holds jobs keyed by K for one serving goroutine, in the order
// their keys were first queued. A job put for a key that is still waiting
// replaces it in place (the latest wins); a job put while its key is being
// served waits for the next round, so the latest job of every key is always
// served last. put never blocks: the LSP read loop may call it.
type keyedQueue[K comparable, V any] struct {
	mu      sync.Mutex
	order   []K
	pending map[K]V
	wake    chan struct{} // one buffered token: "something was put"
}

func newKeyedQueue[K comparable, V any]() *keyedQueue[K, V] {
	return &keyedQueue[K, V]{pending: map[K]V{}, wake: make(chan struct{}, 1)}
}

// put queues v for k, replacing a job of k that is still waiting.
func (q *keyedQueue[K, V]) put(k K, v V) {
	q.mu.Lock()
	if _, waiting := q.pending[k]; !waiting {
		q.order = append(q.order, k)
	}
	q.pending[k] = v
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// take removes and returns the oldest waiting job.
func (q *keyedQueue[K, V]) take() (K, V, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.order) == 0 {
		var k K
		var v V
		return k, v, false
	}
	k := q.order[0]
	q.order = q.order[1:]
	v := q.pending[k]
	delete(q.pending, k)
	return k, v, true
}

// serve runs fn on the jobs, one at a time, until done is closed.
func (q *keyedQueue[K, V]) serve(done <-chan struct{}, fn func(K, V)) {
	for {
		select {
		case <-done:
			return
		default:
		}
		if k, v, ok := q.take(); ok {
			fn(k, v)
			continue
		}
		select {
		case <-q.wake:
		case <-done:
			return
		}
	}
}
