package server

import (
	"fmt"
	"testing"
)

func TestKeyedQueueLatestWinsInFirstQueuedOrder(t *testing.T) {
	t.Parallel()
	q := newKeyedQueue[string, int]()
	q.put("a.plan", 1)
	q.put("b.plan", 2)
	q.put("a.plan", 3) // replaces a's waiting job, keeps a's place
	var got []string
	for {
		k, v, ok := q.take()
		if !ok {
			break
		}
		got = append(got, fmt.Sprintf("%s=%d", k, v))
	}
	if want := "[a.plan=3 b.plan=2]"; fmt.Sprint(got) != want {
		t.Fatalf("jobs = %v, want %s", got, want)
	}
}

func TestKeyedQueuePutWhileServingRunsAgain(t *testing.T) {
	t.Parallel()
	q := newKeyedQueue[string, int]()
	done := make(chan struct{})
	served := make(chan string)
	release := make(chan struct{})
	go q.serve(done, func(k string, v int) {
		served <- fmt.Sprintf("%s=%d", k, v)
		<-release
	})
	defer close(done)

	q.put("a", 1)
	if got := <-served; got != "a=1" {
		t.Fatalf("first job = %s", got)
	}
	// a=1 is being served: a=2 and a=3 wait for the next round, a=3 wins.
	q.put("a", 2)
	q.put("a", 3)
	release <- struct{}{}
	if got := <-served; got != "a=3" {
		t.Fatalf("second job = %s, want a=3 (the latest)", got)
	}
	release <- struct{}{}
	if _, _, ok := q.take(); ok {
		t.Fatal("a job is left after the latest was served")
	}
}

func TestKeyedQueueServeStopsWhenDone(t *testing.T) {
	t.Parallel()
	q := newKeyedQueue[string, int]()
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		q.serve(done, func(string, int) { t.Error("served a job after done") })
		close(stopped)
	}()
	close(done)
	<-stopped
	q.put("late", 1) // never blocks, even with nobody serving
	if k, _, ok := q.take(); !ok || k != "late" {
		t.Fatalf("take after stop = %q, %v", k, ok)
	}
}
