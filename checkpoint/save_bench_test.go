package checkpoint

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkSaveUnchanged is a turn's checkpoint of a 500-file workspace
// that did not change since the last one: the walk, the objects' checks
// (and, since the cross-process lock, the lock file's open and flock).
func BenchmarkSaveUnchanged(b *testing.B) {
	files := map[string]string{}
	for i := 0; i < 500; i++ {
		files[fmt.Sprintf("pkg%d/file%d.go", i%20, i)] = fmt.Sprintf("package p\n\nconst n%d = %d\n", i, i)
	}
	s, root := newStore(b, files, DefaultRetention)
	s.pruneEvery = 1 << 30
	hour := time.Now().Add(-time.Hour) // older than the racy window: hashed once
	for name := range files {
		if err := os.Chtimes(filepath.Join(root, name), hour, hour); err != nil {
			b.Fatal(err)
		}
	}
	ctx := context.Background()
	if _, err := s.Save(ctx, "s1", "c0"); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Save(ctx, "s1", fmt.Sprintf("c%d", i+1)); err != nil {
			b.Fatal(err)
		}
	}
}
