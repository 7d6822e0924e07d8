package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// heapFloor is how much the heap may grow between two collections at
// least. With Go's default (GOGC=100: grow by the live heap) a server
// whose live heap is 3 MB collects every 3 MB allocated: a few times per
// turn, and during the first turn after start-up's garbage (bench/
// requestpath measured a collection as a third of turn 1's CPU). With the
// floor it collects every 16 MB (at most 20 MB of heap before the first
// collection); once the live heap passes 16 MB the floor is Go's default.
const heapFloor = 16 << 20

// maxGCPercent caps the GOGC the floor sets: Go's minimum heap before the
// first collection (4 MB) is scaled by GOGC/100, and 500 makes it 20 MB.
const maxGCPercent = 500

// gcPercentFor is the GOGC that lets a live heap of live bytes grow by
// heapFloor before the next collection: between 100 (Go's default) and
// maxGCPercent.
func gcPercentFor(live uint64) int {
	if live == 0 {
		return maxGCPercent
	}
	return int(min(max(uint64(heapFloor)*100/live, 100), maxGCPercent))
}

// startGCFloor sets GOGC from the live heap now and after every
// collection (a finalizer re-armed at each one), so that the heap grows by
// heapFloor at least between two collections. A GOGC in the environment
// is the user's choice and wins: then it does nothing. stop ends the
// adjustments (the GOGC last set stays).
func startGCFloor(getenv func(string) string) (stop func()) {
	if getenv("GOGC") != "" {
		return func() {}
	}
	var stopped atomic.Bool
	var arm func()
	arm = func() {
		s := &gcSentinel{}
		runtime.SetFinalizer(s, func(*gcSentinel) {
			if stopped.Load() {
				return
			}
			debug.SetGCPercent(gcPercentFor(liveHeap()))
			arm()
		})
	}
	debug.SetGCPercent(gcPercentFor(liveHeap()))
	arm()
	return func() { stopped.Store(true) }
}

// gcSentinel is the object whose finalizer runs after each collection (not
// zero-sized: the runtime may not finalize those).
type gcSentinel struct{ _ [16]byte }

// liveHeap is the live heap as of the last collection (0 before the first).
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
