package workspace

import (
	"errors"
	"testing"
)

// TestOverlayLostBuffer: a didChange that cannot be applied loses the
// buffer (reads fail with ErrBufferLost, not the stale text nor the disk);
// ranged changes meanwhile change nothing; the whole text, a save with the
// text or a new didOpen make it known again.
func TestOverlayLostBuffer(t *testing.T) {
	past := &Range{Start: Position{Line: 9}, End: Position{Line: 9}}
	first := &Range{}
	tests := []struct {
		name    string
		recover func(o *Overlay, abs string) error
		want    string // the text once known again; "" stays lost
	}{
		{"ranged change stays lost", func(o *Overlay, abs string) error {
			return o.Change(abs, 3, []ContentChange{{Range: first, Text: "x"}})
		}, ""},
		{"whole text", func(o *Overlay, abs string) error {
			return o.Change(abs, 3, []ContentChange{{Text: "a\nb\n"}, {Range: first, Text: "0"}})
		}, "0a\nb\n"},
		{"save with the text", func(o *Overlay, abs string) error {
			text := "saved\n"
			o.Saved(abs, &text)
			return nil
		}, "saved\n"},
		{"save without the text stays lost", func(o *Overlay, abs string) error {
			o.Saved(abs, nil)
			return nil
		}, ""},
		{"reopened", func(o *Overlay, abs string) error {
			o.Open(abs, 4, "again\n")
			return nil
		}, "again\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newTestWorkspace(t, map[string]string{"f.txt": "on disk\n"})
			p, err := w.Resolve("f.txt")
			if err != nil {
				t.Fatal(err)
			}
			o := w.Overlay()
			o.Open(p.Abs, 1, "one\n")
			if err := o.Change(p.Abs, 2, []ContentChange{{Range: past, Text: "zero\n"}}); err == nil {
				t.Fatal("a change past the end was applied")
			}
			if _, err := w.ReadFile(p); !errors.Is(err, ErrBufferLost) {
				t.Fatalf("read of a lost buffer = %v, want ErrBufferLost", err)
			}
			if _, err := w.ComputeEdit(p, EditSpec{OldString: "one", NewString: "ONE"}); !errors.Is(err, ErrBufferLost) {
				t.Fatalf("edit of a lost buffer = %v, want ErrBufferLost", err)
			}
			if err := tt.recover(o, p.Abs); err != nil {
				t.Fatalf("recover: %v", err)
			}
			got, err := w.ReadFile(p)
			switch {
			case tt.want == "" && !errors.Is(err, ErrBufferLost):
				t.Fatalf("read = %q, %v; want still lost", got, err)
			case tt.want != "" && (err != nil || got != tt.want):
				t.Fatalf("read = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}
