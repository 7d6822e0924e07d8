package llm

import (
	"bytes"
	"hash/maphash"
	"slices"
	"sync"
)

// ToolSetMemo keeps one value computed from a tool set (the encoded tools
// array, their token estimate) per set, keyed by a hash of the tools' text
// and checked against a copy of that text on a hit. A session offers the
// same tools request after request; computing the value again each time
// was a good part of a request's CPU. The zero value is ready to use.
type ToolSetMemo[T any] struct {
	once sync.Once
	seed maphash.Seed
	mu   sync.Mutex
	m    map[uint64]toolSetEntry[T]
}

type toolSetEntry[T any] struct {
	specs []ToolSpec // a deep copy: the caller may reuse its own
	value T
}

// maxToolSets bounds a memo (a session has a tool set per mode, a few more
// with MCP servers or sub-agents): past it the memo is emptied.
const maxToolSets = 64

// Get returns the value for specs, computing it once per tool set. An
// error is returned as is and nothing is kept.
func (m *ToolSetMemo[T]) Get(specs []ToolSpec, compute func([]ToolSpec) (T, error)) (T, error) {
	m.once.Do(func() { m.seed = maphash.MakeSeed() })
	var h maphash.Hash
	h.SetSeed(m.seed)
	for _, t := range specs {
		h.WriteString(t.Name)
		h.WriteByte(0)
		h.WriteString(t.Description)
		h.WriteByte(0)
		h.Write(t.Parameters)
		h.WriteByte(0)
	}
	key := h.Sum64()
	m.mu.Lock()
	e, ok := m.m[key]
	m.mu.Unlock()
	if ok && sameTools(e.specs, specs) {
		return e.value, nil
	}
	v, err := compute(specs)
	if err != nil {
		return v, err
	}
	kept := make([]ToolSpec, len(specs))
	for i, t := range specs {
		kept[i] = ToolSpec{Name: t.Name, Description: t.Description, Parameters: bytes.Clone(t.Parameters)}
	}
	m.mu.Lock()
	if m.m == nil || len(m.m) >= maxToolSets {
		m.m = map[uint64]toolSetEntry[T]{}
	}
	m.m[key] = toolSetEntry[T]{specs: kept, value: v}
	m.mu.Unlock()
	return v, nil
}

// sameTools reports whether two tool sets have the same text.
func sameTools(a, b []ToolSpec) bool {
	return slices.EqualFunc(a, b, func(x, y ToolSpec) bool {
		return x.Name == y.Name && x.Description == y.Description && bytes.Equal(x.Parameters, y.Parameters)
	})
}
