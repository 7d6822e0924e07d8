package checkpoint

import (
	"context"
	"testing"
)

// TestCheckpointListsAFileWithANonUTF8NameUnderItsName: a file named in
// Latin-1 (Linux allows any bytes) is scanned under its own name, so the
// manifest read back from the disk, which a rewind compares with the
// workspace, must name it so too. Found by FuzzCheckpointReadsBackWhatItSaved.
func TestCheckpointListsAFileWithANonUTF8NameUnderItsName(t *testing.T) {
	const name = "r\xe9sum\xe9.txt"
	s, _ := newStore(t, map[string]string{name: "the agent edited this\n"}, DefaultRetention)
	saved, err := s.Save(context.Background(), "s1", "c1")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := saved[name]; !ok {
		t.Fatalf("Save did not list %q: %q", name, saved.Keys())
	}
	loaded, err := s.Load("s1", "c1")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := loaded[name]; !ok {
		t.Fatalf("the checkpoint read back lists %q, not %q: a rewind finds the file missing from it and cannot restore it", loaded.Keys(), name)
	}
}
