package llm

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestToolSetMemo(t *testing.T) {
	var memo ToolSetMemo[int]
	calls := 0
	count := func(specs []ToolSpec) (int, error) {
		calls++
		return len(specs), nil
	}
	params := json.RawMessage(`{"type":"object"}`)
	set := []ToolSpec{{Name: "read", Description: "reads", Parameters: params}}
	steps := []struct {
		name      string
		specs     []ToolSpec
		mutate    func()
		wantCalls int
	}{
		{"first use computes", set, nil, 1},
		{"the same set is a hit", []ToolSpec{{Name: "read", Description: "reads", Parameters: json.RawMessage(`{"type":"object"}`)}}, nil, 1},
		{"another description computes", []ToolSpec{{Name: "read", Description: "reads files", Parameters: params}}, nil, 2},
		{"a name moved between fields is another set", []ToolSpec{{Name: "rea", Description: "dreads", Parameters: params}}, nil, 3},
		// The caller reuses its schema's bytes: the memo kept its own copy.
		{"the caller's bytes changed under it", set, func() { params[2] = 'T' }, 4},
	}
	for _, s := range steps {
		if s.mutate != nil {
			s.mutate()
		}
		v, err := memo.Get(s.specs, count)
		if err != nil || v != len(s.specs) || calls != s.wantCalls {
			t.Fatalf("%s: value %d, err %v, computed %d times; want %d, nil, %d", s.name, v, err, calls, len(s.specs), s.wantCalls)
		}
	}
	fail := errors.New("no")
	for range 2 {
		if _, err := memo.Get([]ToolSpec{{Name: "x"}}, func([]ToolSpec) (int, error) { calls++; return 0, fail }); !errors.Is(err, fail) {
			t.Fatalf("err = %v, want the computation's", err)
		}
	}
	if calls != 6 {
		t.Fatalf("a failed computation was kept (computed %d times, want 6)", calls)
	}
}
