package workspace

import "testing"

// TestOverlayReload: only an open, clean document without an applied agent
// edit takes the disk's new text; OpenPaths lists the open documents.
func TestOverlayReload(t *testing.T) {
	tests := []struct {
		name   string
		setup  func(o *Overlay)
		want   bool
		wantTx string
	}{
		{"clean buffer", func(o *Overlay) { o.Open("/w/a", 1, "old") }, true, "new"},
		{"dirty buffer", func(o *Overlay) {
			o.Open("/w/a", 1, "old")
			_ = o.Change("/w/a", 2, []ContentChange{{Text: "mine"}})
		}, false, "mine"},
		{"applied agent edit", func(o *Overlay) { o.Open("/w/a", 1, "old"); o.SetApplied("/w/a", "agent") }, false, "agent"},
		{"closed", func(o *Overlay) { o.Open("/w/a", 1, "old"); o.Close("/w/a") }, false, ""},
		{"never open", func(o *Overlay) {}, false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := NewOverlay()
			tc.setup(o)
			if got := o.Reload("/w/a", "new"); got != tc.want {
				t.Errorf("Reload = %v, want %v", got, tc.want)
			}
			if text, _, _ := o.Get("/w/a"); text != tc.wantTx {
				t.Errorf("text = %q, want %q", text, tc.wantTx)
			}
		})
	}
	o := NewOverlay()
	o.Open("/w/b", 1, "")
	o.Open("/w/a", 1, "")
	if got := o.OpenPaths(); len(got) != 2 || got[0] != "/w/a" {
		t.Errorf("OpenPaths = %v", got)
	}
}
