package server

import (
	"testing"

	"go.lsp.dev/jsonrpc2"
)

// TestWithdrawnQuestionsAreBounded: the withdrawn questions remembered for
// a late reply are at most maxWithdrawn, the oldest forgotten first; a
// reply takes its question once.
func TestWithdrawnQuestionsAreBounded(t *testing.T) {
	var r withdrawnQuestions
	for i := range maxWithdrawn + 1 {
		r.add(jsonrpc2.NewNumberID(int64(i)), withdrawnQuestion{w: withdrawal{question: "q"}})
	}
	if _, ok := r.take(jsonrpc2.NewNumberID(0)); ok {
		t.Fatal("the oldest withdrawn question was kept past the bound")
	}
	if _, ok := r.take(jsonrpc2.NewNumberID(maxWithdrawn)); !ok {
		t.Fatal("the newest withdrawn question was forgotten")
	}
	if _, ok := r.take(jsonrpc2.NewNumberID(maxWithdrawn)); ok {
		t.Fatal("a withdrawn question was taken twice")
	}
	if len(r.byID) != maxWithdrawn-1 || len(r.order) != maxWithdrawn-1 {
		t.Fatalf("%d remembered, %d in order; want %d", len(r.byID), len(r.order), maxWithdrawn-1)
	}
}
