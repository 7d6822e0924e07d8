package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestOverlayIncrementalUTF16(t *testing.T) {
	o := NewOverlay()
	const f = "/ws/a.txt"
	o.Open(f, 1, helloWorld+"\n日本語\n")
	steps := []struct {
		changes []ContentChange
		want    string
	}{
		// é → e (UTF-16 1..2)
		{[]ContentChange{{Range: &Range{pos(0, 1), pos(0, 2)}, Text: "e"}}, "hello 🌍\n日本語\n"},
		// insert after the emoji (UTF-16 8)
		{[]ContentChange{{Range: &Range{pos(0, 8), pos(0, 8)}, Text: "!"}}, "hello 🌍!\n日本語\n"},
		// two changes, the second against the text the first produced
		{[]ContentChange{
			{Range: &Range{pos(1, 0), pos(1, 1)}, Text: "二"},
			{Range: &Range{pos(1, 1), pos(1, 3)}, Text: "ほん"},
		}, "hello 🌍!\n二ほん\n"},
		// delete across lines
		{[]ContentChange{{Range: &Range{pos(0, 9), pos(1, 0)}, Text: " "}}, "hello 🌍! 二ほん\n"},
		// full replacement then an incremental change
		{[]ContentChange{{Text: "abc\n"}, {Range: &Range{pos(0, 3), pos(0, 3)}, Text: "d"}}, "abcd\n"},
		// append at the end of the document
		{[]ContentChange{{Range: &Range{pos(1, 0), pos(1, 0)}, Text: "tail"}}, "abcd\ntail"},
	}
	for i, s := range steps {
		if err := o.Change(f, int32(i+2), s.changes); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		got, v, ok := o.Get(f)
		if !ok || got != s.want || v != int32(i+2) {
			t.Fatalf("step %d: Get = %q v%d %v, want %q v%d", i, got, v, ok, s.want, i+2)
		}
	}
}

func TestOverlayChangeErrors(t *testing.T) {
	o := NewOverlay()
	if err := o.Change("/ws/none", 1, []ContentChange{{Text: "x"}}); err == nil || !strings.Contains(err.Error(), "not open") {
		t.Errorf("change of an unopened doc: %v", err)
	}
	o.Open("/ws/a", 1, "abc")
	err := o.Change("/ws/a", 2, []ContentChange{
		{Range: &Range{pos(0, 0), pos(0, 1)}, Text: "X"},
		{Range: &Range{pos(5, 0), pos(5, 0)}, Text: "Y"},
	})
	if err == nil {
		t.Fatal("a change past the end should fail")
	}
	// Neither the text before the change nor a part of it is the editor's
	// buffer now: the document is lost (overlay_lost.go), not left alone.
	if reason := o.Lost("/ws/a"); !strings.Contains(reason, "change 1 of version 2") {
		t.Errorf("a failed change must lose the doc, saying which change: %q", reason)
	}
	if err := o.Change("/ws/a", 3, []ContentChange{{Range: &Range{pos(0, 0), pos(0, 0)}, Text: "Z"}}); err != nil || o.Lost("/ws/a") == "" {
		t.Errorf("a ranged change to a lost doc = %v (lost %q), want dropped quietly", err, o.Lost("/ws/a"))
	}
	o.Open("/ws/b", 1, "abc")
	if err := o.Change("/ws/b", 2, []ContentChange{{Range: &Range{pos(0, 2), pos(0, 1)}}}); err == nil {
		t.Error("a reversed range should fail")
	}
}

func TestOverlayLifecycle(t *testing.T) {
	o := NewOverlay()
	const f = "/ws/x.go"
	if _, _, ok := o.Get(f); ok {
		t.Fatal("empty overlay has text")
	}
	o.Open(f, 1, "v1")
	if o.IsDirty(f) {
		t.Error("freshly opened doc is dirty")
	}
	_ = o.Change(f, 2, []ContentChange{{Text: "v2"}})
	if !o.IsDirty(f) {
		t.Error("changed doc is not dirty")
	}
	if got := o.DirtyPaths(); len(got) != 1 || got[0] != f {
		t.Errorf("DirtyPaths = %v", got)
	}
	o.Saved(f, nil)
	if o.IsDirty(f) {
		t.Error("saved doc is dirty")
	}
	if got, _, _ := o.Get(f); got != "v2" {
		t.Errorf("after save: %q", got)
	}
	saved := "v2 as saved"
	o.Saved(f, &saved)
	if got, _, _ := o.Get(f); got != saved {
		t.Errorf("save with text: %q", got)
	}

	// An agent edit the editor applied wins until the editor reports the doc.
	o.SetApplied(f, "agent")
	if got, _, _ := o.Get(f); got != "agent" || !o.IsDirty(f) {
		t.Errorf("after SetApplied: %q dirty=%v", got, o.IsDirty(f))
	}
	_ = o.Change(f, 3, []ContentChange{{Range: &Range{pos(0, 0), pos(0, 0)}, Text: ">"}})
	if got, _, _ := o.Get(f); got != ">v2 as saved" {
		t.Errorf("the editor's change applies to its buffer: %q", got)
	}
	o.SetApplied(f, "agent again")
	o.Saved(f, nil)
	if got, _, _ := o.Get(f); got != ">v2 as saved" || o.IsDirty(f) {
		t.Errorf("save drops the applied text: %q dirty=%v", got, o.IsDirty(f))
	}
	o.SetApplied(f, "agent 3")
	o.Open(f, 9, "reopened")
	if got, v, _ := o.Get(f); got != "reopened" || v != 9 {
		t.Errorf("open drops the applied text: %q v%d", got, v)
	}
	o.Close(f)
	if _, _, ok := o.Get(f); ok {
		t.Error("closed doc still in the overlay")
	}

	// An applied edit to a file the editor has not opened.
	const g = "/ws/closed.go"
	o.SetApplied(g, "new text")
	if got, _, ok := o.Get(g); !ok || got != "new text" || !o.IsDirty(g) {
		t.Errorf("applied to a closed doc: %q %v", got, ok)
	}
	if err := o.Change(g, 1, []ContentChange{{Text: "x"}}); err == nil {
		t.Error("didChange of a doc that is not open should fail")
	}
	o.Saved(g, nil)
	if _, _, ok := o.Get(g); ok {
		t.Error("saved closed doc should be forgotten (the disk has it)")
	}
	o.SetApplied(g, "again")
	o.Close(g)
	if _, _, ok := o.Get(g); ok {
		t.Error("close should forget an applied doc")
	}
}

func TestOverlayKeyIsCleaned(t *testing.T) {
	o := NewOverlay()
	o.Open("/ws/sub/../a.txt", 1, "x")
	if got, _, ok := o.Get("/ws/a.txt"); !ok || got != "x" {
		t.Errorf("Get by the clean path: %q %v", got, ok)
	}
}

func TestOverlayConcurrent(t *testing.T) {
	o := NewOverlay()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f := fmt.Sprintf("/ws/f%d", i)
			o.Open(f, 0, "")
			for v := range 200 {
				if err := o.Change(f, int32(v+1), []ContentChange{{Range: &Range{pos(0, uint32(v)), pos(0, uint32(v))}, Text: "x"}}); err != nil {
					t.Error(err)
					return
				}
				o.Get(f)
				o.IsDirty(f)
				o.DirtyPaths()
				o.SetApplied("/ws/shared", f)
				o.snapshot()
			}
			if got, _, _ := o.Get(f); got != strings.Repeat("x", 200) {
				t.Errorf("%s: %d bytes", f, len(got))
			}
		}()
	}
	wg.Wait()
}

// TestOverlaySymlinkedRoot: on a workspace reached through a symlink, the
// editor names its buffers through the link and the agent through the real
// path; both find the same buffer, and edits go back under the editor's name.
func TestOverlaySymlinkedRoot(t *testing.T) {
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(real, "a.txt"), []byte("disk text\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := New(link)
	if err != nil {
		t.Fatal(err)
	}
	o := ws.Overlay()
	editorA, editorNew := filepath.Join(link, "a.txt"), filepath.Join(link, "sub", "new.txt")
	o.Open(editorA, 3, "buffer text\n")
	if err := o.Change(editorA, 4, []ContentChange{{Range: &Range{pos(0, 6), pos(0, 6)}, Text: " unsaved"}}); err != nil {
		t.Fatal(err)
	}
	o.Open(editorNew, 1, "not on disk yet\n") // an unsaved new file: its parent does not exist either
	p, err := ws.Resolve("a.txt")
	if err != nil {
		t.Fatal(err)
	}
	if p.Abs == editorA {
		t.Fatalf("Resolve kept the link: %s", p.Abs)
	}
	if got, err := ws.ReadFile(p); err != nil || got != "buffer unsaved text\n" {
		t.Fatalf("ReadFile(%s) = %q, %v; want the unsaved buffer", p.Abs, got, err)
	}
	if _, v, ok := o.Get(p.Abs); !ok || v != 4 {
		t.Fatalf("Get(real) version = %d %v, want 4", v, ok)
	}
	if got := o.EditorName(p.Abs); got != editorA {
		t.Fatalf("EditorName = %q, want the editor's %q", got, editorA)
	}
	if !o.IsDirty(p.Abs) || !slices.Equal(o.DirtyPaths(), []string{p.Abs}) {
		t.Fatalf("dirty: %v %v", o.IsDirty(p.Abs), o.DirtyPaths())
	}
	pn, err := ws.Resolve("sub/new.txt")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := ws.ReadFile(pn); err != nil || got != "not on disk yet\n" {
		t.Fatalf("ReadFile(new) = %q, %v", got, err)
	}
	res := grepOK(t, ws, GrepOptions{Pattern: "unsaved"})
	if got := matchKeys(res); !slices.Equal(got, []string{"a.txt:1:buffer unsaved text"}) {
		t.Fatalf("grep sees %v, want the unsaved buffer", got)
	}
	o.Saved(editorA, nil)
	if o.IsDirty(p.Abs) {
		t.Fatal("saved through the link: still dirty")
	}
	o.Close(editorA)
	if got, err := ws.ReadFile(p); err != nil || got != "disk text\n" {
		t.Fatalf("after close through the link: %q, %v; want the disk", got, err)
	}
	if got := o.EditorName(p.Abs); got != p.Abs {
		t.Fatalf("EditorName of a closed doc = %q", got)
	}
}
