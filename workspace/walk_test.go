package workspace

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestWalkerSkipsVanishedFolders(t *testing.T) {
	ws := newTestWorkspace(t, map[string]string{"a/x": "", "b/y": "", "c/z": ""})
	var seen []string
	wk := walker{folder: ws.Root(), visit: func(e *walkEntry) (bool, error) {
		seen = append(seen, e.rel)
		if e.rel == "b" {
			// The folder disappears between its listing and its walk.
			if err := os.RemoveAll(e.abs); err != nil {
				return false, err
			}
		}
		return true, nil
	}}
	if err := wk.run(context.Background(), ""); err != nil {
		t.Fatalf("a vanished sub-folder must not fail the walk: %v", err)
	}
	if want := []string{"a", "a/x", "b", "c", "c/z"}; !slices.Equal(seen, want) {
		t.Errorf("walked %v, want %v", seen, want)
	}
	missing := walker{folder: ws.Root(), visit: wk.visit}
	if err := missing.run(context.Background(), "gone"); err == nil {
		t.Error("an unreadable base folder must fail")
	}
}

func TestWalkerDoesNotFollowSymlinks(t *testing.T) {
	ws := newTestWorkspace(t, map[string]string{"real/f.txt": "needle\n"})
	if err := os.Symlink(filepath.Join(ws.Root(), "real"), filepath.Join(ws.Root(), "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(ws.Root(), "real", "f.txt"), filepath.Join(ws.Root(), "flink.txt")); err != nil {
		t.Fatal(err)
	}
	got, err := ws.Glob("**", mustResolve(t, ws, "."))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"flink.txt", "link", "real", "real/f.txt"}; !slices.Equal(got, want) {
		t.Errorf("Glob(**) = %v, want %v", got, want)
	}
	res := grepOK(t, ws, GrepOptions{Pattern: "needle"})
	if keys := matchKeys(res); !slices.Equal(keys, []string{"real/f.txt:1:needle"}) || res.FilesSearched != 1 {
		t.Errorf("grep follows no symlink: %v (searched %d)", keys, res.FilesSearched)
	}
}

func TestWalkerCancelled(t *testing.T) {
	ws := newTestWorkspace(t, map[string]string{"a/b": ""})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	wk := walker{folder: ws.Root(), visit: func(*walkEntry) (bool, error) { return true, nil }}
	if err := wk.run(ctx, ""); err == nil {
		t.Error("a cancelled walk must fail")
	}
	if _, err := ws.GlobContext(ctx, "**", mustResolve(t, ws, ".")); err == nil {
		t.Error("a cancelled glob must fail")
	}
}
