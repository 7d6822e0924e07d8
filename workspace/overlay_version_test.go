package workspace

import "testing"

// TestOverlayVersionKnown: after an agent edit the editor applied, the
// editor's version is unknown until it reports the document again (a save
// does not tell it); an edit the editor reported before answering keeps it
// known.
func TestOverlayVersionKnown(t *testing.T) {
	t.Parallel()
	save := func(o *Overlay) { text := "new"; o.Saved("/w/a", &text) }
	cases := []struct {
		name string
		do   func(o *Overlay)
		want bool
	}{
		{"open", func(o *Overlay) {}, true},
		{"not open", func(o *Overlay) { o.Close("/w/a") }, false},
		{"applied, not reported", func(o *Overlay) { o.SetApplied("/w/a", "new") }, false},
		{"applied, then saved by the server", func(o *Overlay) { o.SetApplied("/w/a", "new"); save(o) }, false},
		{"applied, then reported", func(o *Overlay) {
			o.SetApplied("/w/a", "new")
			_ = o.Change("/w/a", 3, []ContentChange{{Text: "new"}})
		}, true},
		{"reported before the answer", func(o *Overlay) {
			_ = o.Change("/w/a", 3, []ContentChange{{Text: "new"}})
			o.SetApplied("/w/a", "new")
		}, true},
		{"applied, then reopened", func(o *Overlay) { o.SetApplied("/w/a", "new"); o.Open("/w/a", 7, "new") }, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := NewOverlay()
			o.Open("/w/a", 0, "old")
			c.do(o)
			if got := o.VersionKnown("/w/a"); got != c.want {
				t.Errorf("VersionKnown = %v, want %v", got, c.want)
			}
		})
	}
}
