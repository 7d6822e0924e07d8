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
		{"saved without the text, then reloaded from disk, stays lost", func(o *Overlay, abs string) error {
			o.Saved(abs, nil)
			if o.Reload(abs, "on disk\n") {
				return errors.New("a lost buffer took the disk's text")
			}
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

// FuzzOverlayLostBuffer: whatever ranges a didChange carries, the overlay
// never panics, a change either applies or loses the buffer (never keeps a
// text the editor no longer has), a lost buffer stays lost through ranged
// changes, and a whole-text change always makes it known again.
func FuzzOverlayLostBuffer(f *testing.F) {
	f.Add("one\ntwo\n", uint32(9), uint32(0), uint32(9), uint32(0), "zero\n", uint32(0), uint32(1))
	f.Add("a\r\nb", uint32(0), uint32(5), uint32(1), uint32(0), "x", uint32(0), uint32(0))
	f.Add("héllo 😀", uint32(0), uint32(7), uint32(0), uint32(2), "", uint32(1), uint32(0))
	f.Fuzz(func(t *testing.T, text string, sl, sc, el, ec uint32, newText string, l2, c2 uint32) {
		o := NewOverlay()
		const abs = "/ws/f.txt"
		o.Open(abs, 1, text)
		r := &Range{Start: Position{Line: sl, Character: sc}, End: Position{Line: el, Character: ec}}
		err := o.Change(abs, 2, []ContentChange{{Range: r, Text: newText}})
		got, v, open := o.Get(abs)
		if !open || v != 2 {
			t.Fatalf("after a change: open %v version %d, want open at 2", open, v)
		}
		if (err != nil) != (o.Lost(abs) != "") {
			t.Fatalf("change error %v but lost %q", err, o.Lost(abs))
		}
		if err == nil {
			want, aerr := applyContentChange(text, *r, newText)
			if aerr != nil || got != want {
				t.Fatalf("applied %q, want %q (%v)", got, want, aerr)
			}
			return
		}
		if got != "" {
			t.Fatalf("a lost buffer still shows text %q", got)
		}
		p := Path{Abs: abs, Rel: "f.txt"}
		if err := o.lostError(p); !errors.Is(err, ErrBufferLost) {
			t.Fatalf("lostError = %v", err)
		}
		r2 := &Range{Start: Position{Line: l2, Character: c2}, End: Position{Line: l2, Character: c2}}
		if err := o.Change(abs, 3, []ContentChange{{Range: r2, Text: "x"}}); err != nil || o.Lost(abs) == "" {
			t.Fatalf("a ranged change to a lost buffer: %v, lost %q", err, o.Lost(abs))
		}
		if err := o.Change(abs, 4, []ContentChange{{Text: text}}); err != nil || o.Lost(abs) != "" {
			t.Fatalf("the whole text did not make it known: %v, lost %q", err, o.Lost(abs))
		}
		if got, _, _ := o.Get(abs); got != text {
			t.Fatalf("after the whole text: %q, want %q", got, text)
		}
	})
}
