// Command checkpointbench measures what a checkpoint costs (docs/rewind.md
// "Cost"): it copies a folder (default: net/http of the Go installation)
// to a temporary workspace and times the checkpoint store there — the
// first checkpoint (every file hashed and stored), a checkpoint of the
// unchanged workspace (the per-turn cost when nothing changed), and one
// after a turn's worth of edits — with the disk each one adds.
//
//	go run ./bench/checkpointbench [-dir DIR] [-runs N]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/agentls/agentls/checkpoint"
	"github.com/agentls/agentls/workspace"
)

// goroot is `go env GOROOT` ("" when the go command cannot say).
func goroot() string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

func main() {
	dir := flag.String("dir", filepath.Join(goroot(), "src", "net", "http"), "folder to copy and checkpoint")
	runs := flag.Int("runs", 20, "checkpoints of each kind (the median is printed)")
	flag.Parse()
	if err := run(*dir, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "checkpointbench:", err)
		os.Exit(1)
	}
}

func run(src string, runs int) error {
	tmp, err := os.MkdirTemp("", "checkpointbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	files, bytes, err := copyTree(src, tmp)
	if err != nil {
		return err
	}
	ws, err := workspace.New(tmp)
	if err != nil {
		return err
	}
	store := checkpoint.Open(ws, checkpoint.DefaultRetention)
	ctx := context.Background()
	fmt.Printf("workspace: copy of %s, %d files, %.1f MB\n\n", src, files, float64(bytes)/1e6)
	fmt.Printf("%-34s %12s %14s\n", "checkpoint", "time", "disk added")

	n := 0
	measure := func(name string, before func(i int) error) error {
		var times []time.Duration
		var disk int64
		for i := 0; i < runs; i++ {
			if before != nil {
				if err := before(i); err != nil {
					return err
				}
			}
			size0, err := dirSize(store.Dir())
			if err != nil {
				return err
			}
			n++
			start := time.Now()
			if _, err := store.Save(ctx, "bench", "m"+strconv.Itoa(n)); err != nil {
				return err
			}
			times = append(times, time.Since(start))
			size1, err := dirSize(store.Dir())
			if err != nil {
				return err
			}
			disk += size1 - size0
			if name == "first (cold: every file stored)" {
				break
			}
		}
		sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
		fmt.Printf("%-34s %12s %11.1f KB\n", name, times[len(times)/2].Round(10*time.Microsecond), float64(disk)/float64(len(times))/1e3)
		return nil
	}
	if err := measure("first (cold: every file stored)", nil); err != nil {
		return err
	}
	// Files of the copy grow old enough for the digest cache: their
	// modification times are set back, and their change times (which no
	// one can set) must pass the 2 s racy window.
	copied := time.Now()
	old := copied.Add(-time.Minute)
	if err := filepath.WalkDir(tmp, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		return os.Chtimes(p, old, old)
	}); err != nil {
		return err
	}
	time.Sleep(time.Until(copied.Add(2100 * time.Millisecond)))
	if err := measure("unchanged workspace (per turn)", nil); err != nil {
		return err
	}
	// A new process: a new store, whose first checkpoint reads the digests
	// of the unchanged files from the store's digest cache on disk.
	fresh := store
	if err := measure("first of a new process", func(int) error {
		store = checkpoint.Open(ws, checkpoint.DefaultRetention)
		return nil
	}); err != nil {
		return err
	}
	if err := measure("first of a new process, no cache", func(int) error {
		store = checkpoint.Open(ws, checkpoint.DefaultRetention)
		return os.Remove(filepath.Join(store.Dir(), ".hashes"))
	}); err != nil {
		return err
	}
	store = fresh
	edited := []string{"server.go", "client.go", "transport.go"}
	return measure("after editing 3 files", func(i int) error {
		for _, name := range edited {
			p := filepath.Join(tmp, name)
			b, err := os.ReadFile(p)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return err
			}
			if err := os.WriteFile(p, append(b, []byte(fmt.Sprintf("// edit %d\n", i))...), 0o644); err != nil {
				return err
			}
			if err := os.Chtimes(p, old.Add(time.Duration(i)*time.Second), old.Add(time.Duration(i)*time.Second)); err != nil {
				return err
			}
		}
		return nil
	})
}

// copyTree copies the regular files of src into dst.
func copyTree(src, dst string) (files int, bytes int64, err error) {
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files++
		bytes += int64(len(b))
		return os.WriteFile(target, b, 0o644)
	})
	return files, bytes, err
}

// dirSize is the bytes of the files under dir (0 when it does not exist).
func dirSize(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if !d.IsDir() {
			info, err := d.Info()
			if err != nil {
				return err
			}
			n += info.Size()
		}
		return nil
	})
	return n, err
}
