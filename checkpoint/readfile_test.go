package checkpoint

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"
)

// TestReadFile: the digest is the whole file's, the content comes back
// exactly when the file has at most MaxFileBytes, whatever size the caller
// last saw (the file may have grown or shrunk since).
func TestReadFile(t *testing.T) {
	tests := []struct {
		name string
		size int   // the file's real size
		hint int64 // the size readFile is told
	}{
		{"empty", 0, 0},
		{"small", 100, 100},
		{"small, told nothing", 100, 0},
		{"small, told too much", 100, 5000},
		{"grew since the stat", 70_000, 10},
		{"exactly the cap", MaxFileBytes, MaxFileBytes},
		{"exactly the cap, told less", MaxFileBytes, 4096},
		{"one over the cap", MaxFileBytes + 1, MaxFileBytes + 1},
		{"one over the cap, told it fits", MaxFileBytes + 1, MaxFileBytes},
		{"far over the cap", 3*MaxFileBytes + 17, 3*MaxFileBytes + 17},
		{"told a negative size", 10, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			content := bytes.Repeat([]byte("abcdefghij"), tt.size/10+1)[:tt.size]
			path := filepath.Join(t.TempDir(), "f")
			if err := os.WriteFile(path, content, 0o644); err != nil {
				t.Fatal(err)
			}
			data, sum, err := readFile(path, tt.hint)
			if err != nil {
				t.Fatal(err)
			}
			want := sha256.Sum256(content)
			if sum != hex.EncodeToString(want[:]) {
				t.Errorf("digest %s, want %x", sum, want)
			}
			switch {
			case tt.size > MaxFileBytes && data != nil:
				t.Errorf("a file over the cap gave %d bytes of content, want none", len(data))
			case tt.size <= MaxFileBytes && !bytes.Equal(data, content):
				t.Errorf("content of %d bytes, want the file's %d", len(data), len(content))
			}
		})
	}
}

// TestReadFileMissing: a file that is gone is an error, as os.Open's.
func TestReadFileMissing(t *testing.T) {
	if _, _, err := readFile(filepath.Join(t.TempDir(), "gone"), 10); !os.IsNotExist(err) {
		t.Fatalf("err %v, want not-exist", err)
	}
}

// BenchmarkReadFile: a checkpoint's read of one small source file.
func BenchmarkReadFile(b *testing.B) {
	path := filepath.Join(b.TempDir(), "f.go")
	if err := os.WriteFile(path, bytes.Repeat([]byte("package x // some source\n"), 200), 0o644); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := readFile(path, 5000); err != nil {
			b.Fatal(err)
		}
	}
}
