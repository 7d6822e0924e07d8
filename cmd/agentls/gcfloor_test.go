package main

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestGCPercentFor(t *testing.T) {
	for _, tc := range []struct {
		live uint64
		want int
	}{
		{0, maxGCPercent},         // before the first collection
		{1 << 20, maxGCPercent},   // 1 MB: 1600 % capped
		{4 << 20, 400},            // 4 MB grows by 16 MB
		{16 << 20, 100},           // the floor meets Go's default
		{256 << 20, 100},          // above it: Go's default
		{(16 << 20) / 3, 300},     // rounding down
		{(16 << 20) * 100, 100},   // never below the default
		{1, maxGCPercent},         // no overflow
		{^uint64(0), 100},         // nor underflow
		{(16 << 20) / 5, 500},     // exactly the cap
		{(16 << 20) / 5 * 2, 250}, // between
	} {
		if got := gcPercentFor(tc.live); got != tc.want {
			t.Errorf("gcPercentFor(%d) = %d, want %d", tc.live, got, tc.want)
		}
	}
}

// gcPercent reads GOGC as the runtime has it.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// TestGCFloorFollowsLiveHeap: the floor sets GOGC from the live heap, and
// again after the collections that follow (a live heap past heapFloor
// brings it back to Go's default); a GOGC in the environment is left alone.
func TestGCFloorFollowsLiveHeap(t *testing.T) {
	defer debug.SetGCPercent(gcPercent())
	debug.SetGCPercent(100)
	stop := startGCFloor(func(k string) string {
		if k == "GOGC" {
			return "150"
		}
		return ""
	})
	stop()
	if got := gcPercent(); got != 100 {
		t.Fatalf("with GOGC set, GOGC became %d", got)
	}

	stop = startGCFloor(func(string) string { return "" })
	defer stop()
	runtime.GC()
	live := make([]byte, 64<<20) // a live heap past the floor
	deadline := time.Now().Add(10 * time.Second)
	for gcPercent() != 100 {
		if time.Now().After(deadline) {
			t.Fatalf("GOGC %d with a live heap of %d MB: the floor did not follow the collections", gcPercent(), liveHeap()>>20)
		}
		runtime.GC()
		runtime.Gosched()
	}
	runtime.KeepAlive(live)
	live = nil
	for gcPercent() <= 100 {
		if time.Now().After(deadline) {
			t.Fatalf("GOGC %d with a live heap of %d MB after freeing it", gcPercent(), liveHeap()>>20)
		}
		runtime.GC()
		runtime.Gosched()
	}
}
