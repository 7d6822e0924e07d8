package workspace

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/sourcegraph/conc"
)

// DefaultGrepMaxResults is the number of matches Grep returns when no
// maximum is given.
const DefaultGrepMaxResults = 100

// GrepOptions says what Grep looks for and where.
type GrepOptions struct {
	// Pattern is an RE2 regular expression matched against each line.
	Pattern string
	// Base is the folder to search (or a single file).
	Base Path
	// Include filters files by a glob: without a slash it matches the file
	// name at any depth ("*.go", "*.{ts,tsx}"), with one the path relative to
	// Base ("cmd/**/*.go").
	Include string
	// CaseInsensitive ignores case.
	CaseInsensitive bool
	// Context is the number of lines shown before and after each match.
	Context int
	// MaxResults caps the matches returned (0 means DefaultGrepMaxResults).
	MaxResults int
}

// GrepMatch is one matching line.
type GrepMatch struct {
	// Path is workspace-relative, with forward slashes.
	Path string
	// Line is 1-based, numbered as Read numbers lines ("\n", "\r\n" or a
	// lone "\r" ends one: grep_cr.go).
	Line int
	// Text is the line without its line break (cut after MaxLineLen characters).
	Text string
	// Before and After are up to Context lines around the match.
	Before, After []string
}

// GrepResult is what Grep found.
type GrepResult struct {
	// Matches are sorted by path, then line.
	Matches []GrepMatch
	// Truncated reports that more matches exist than MaxResults.
	Truncated bool
	// FilesSearched counts the text files searched (up to the last one whose
	// matches were needed, when truncated).
	FilesSearched int
}

// Grep searches the text files under opts.Base, line by line, in parallel.
// .gitignore is respected, .git and .agentls are skipped, binary files (a NUL
// byte in the first 8 KiB) are skipped, and an open editor buffer is searched
// instead of its file on disk. The result is deterministic: the first
// MaxResults matches in path order.
func (w *Workspace) Grep(ctx context.Context, opts GrepOptions) (GrepResult, error) {
	if opts.MaxResults < 0 || opts.Context < 0 {
		return GrepResult{}, errors.New("grep: max_results and context must not be negative")
	}
	if opts.MaxResults == 0 {
		opts.MaxResults = DefaultGrepMaxResults
	}
	m, err := newLineMatcher(opts.Pattern, opts.CaseInsensitive)
	if err != nil {
		return GrepResult{}, fmt.Errorf("grep: %w", err)
	}
	var include *pathMatcher
	if opts.Include != "" {
		if include, err = newPathMatcher(opts.Include); err != nil {
			return GrepResult{}, fmt.Errorf("grep include: %w", err)
		}
	}
	if !opts.Base.Exists {
		return GrepResult{}, fmt.Errorf("grep: %s does not exist", displayRel(opts.Base.Rel))
	}
	g := &grepRun{
		opts:    opts,
		m:       m,
		include: include,
		overlay: w.overlay.snapshot(),
		hidden:  w.hiddenFromWalks,
	}
	if !opts.Base.IsDir {
		return g.single(ctx)
	}
	return g.tree(ctx)
}

// grepRun is one Grep call.
type grepRun struct {
	opts    GrepOptions
	m       *lineMatcher
	include *pathMatcher
	overlay map[string]string
	hidden  func(abs string) bool
}

// grepJob is a file to search; seq is its rank in path order.
type grepJob struct {
	seq      int
	rel, abs string
}

// fileResult is what one file gave.
type fileResult struct {
	seq      int
	searched bool // a text file (not binary, readable)
	matches  []GrepMatch
}

func (g *grepRun) single(ctx context.Context) (GrepResult, error) {
	if err := ctx.Err(); err != nil {
		return GrepResult{}, err
	}
	buf := getGrepBuf()
	defer putGrepBuf(buf)
	r := g.searchFile(grepJob{rel: g.opts.Base.Rel, abs: g.opts.Base.Abs}, buf)
	res := GrepResult{Matches: r.matches}
	if r.searched {
		res.FilesSearched = 1
	}
	if len(res.Matches) > g.opts.MaxResults {
		res.Matches, res.Truncated = res.Matches[:g.opts.MaxResults], true
	}
	return res, nil
}

// tree runs the pipeline: one walker feeding GOMAXPROCS searchers, their
// results put back in path order here; once the matches in path order exceed
// MaxResults, everything after is abandoned.
func (g *grepRun) tree(ctx context.Context) (GrepResult, error) {
	inner, cancel := context.WithCancel(ctx)
	defer cancel()
	workers := runtime.GOMAXPROCS(0)
	jobs := make(chan grepJob, 256)
	results := make(chan fileResult, 256)
	var cutoff atomic.Int64 // jobs after this seq are not needed
	cutoff.Store(math.MaxInt64)

	baseRel := relOrEmpty(g.opts.Base.Rel)
	var walkErr error
	var wg conc.WaitGroup
	wg.Go(func() {
		defer close(jobs)
		seq := 0
		wk := walker{folder: g.opts.Base.Folder, hidden: g.hidden, visit: func(e *walkEntry) (bool, error) {
			if e.isDir() {
				return true, nil
			}
			if !e.mode.IsRegular() {
				return false, nil // symlinks, devices, sockets
			}
			if g.include != nil {
				sub := e.rel
				if baseRel != "" {
					sub = e.rel[len(baseRel)+1:]
				}
				if !g.include.match(sub) {
					return false, nil
				}
			}
			select {
			case jobs <- grepJob{seq: seq, rel: e.rel, abs: e.abs}:
				seq++
				return false, nil
			case <-inner.Done():
				return false, inner.Err()
			}
		}}
		walkErr = wk.run(inner, baseRel)
	})
	var searchers conc.WaitGroup
	for range workers {
		searchers.Go(func() {
			buf := getGrepBuf()
			defer putGrepBuf(buf)
			for job := range jobs {
				if inner.Err() != nil || int64(job.seq) > cutoff.Load() {
					continue
				}
				r := g.searchFile(job, buf)
				select {
				case results <- r:
				case <-inner.Done():
				}
			}
		})
	}
	var closer conc.WaitGroup
	var panicked error
	closer.Go(func() {
		rec := searchers.WaitAndRecover()
		if rec != nil {
			cancel() // the walker may be blocked on a job nobody takes
		}
		if rp := wg.WaitAndRecover(); rec == nil {
			rec = rp
		}
		if rec != nil {
			panicked = rec.AsError()
		}
		close(results)
	})

	var res GrepResult
	pending := make(map[int]fileResult)
	next := 0
	done := false
	for r := range results {
		if done {
			continue
		}
		pending[r.seq] = r
		for {
			p, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			if p.searched {
				res.FilesSearched++
			}
			res.Matches = append(res.Matches, p.matches...)
			if len(res.Matches) > g.opts.MaxResults {
				res.Matches, res.Truncated = res.Matches[:g.opts.MaxResults], true
				cutoff.Store(int64(p.seq))
				done = true
				cancel()
				break
			}
		}
	}
	closer.Wait()
	if panicked != nil {
		return GrepResult{}, fmt.Errorf("grep: %w", panicked)
	}
	if err := ctx.Err(); err != nil {
		return GrepResult{}, fmt.Errorf("grep: %w", err)
	}
	if walkErr != nil && !done {
		return GrepResult{}, fmt.Errorf("grep: %w", walkErr)
	}
	return res, nil
}

// searchFile reads (overlay first) and searches one file. buf is reused
// between calls of one worker.
func (g *grepRun) searchFile(job grepJob, buf *[]byte) fileResult {
	out := fileResult{seq: job.seq}
	var data []byte
	if text, ok := g.overlay[job.abs]; ok {
		data = []byte(text)
	} else {
		var err error
		if data, err = readInto(job.abs, buf); err != nil {
			return out // unreadable: skipped like a binary file
		}
	}
	if isBinary(data) {
		return out
	}
	out.searched = true
	limit := g.opts.MaxResults + 1
	if hasLoneCR(data) {
		g.searchCRLines(job, data, limit, &out) // grep_cr.go
		return out
	}
	line, counted := 1, 0
	g.m.scan(data, func(start, end int) bool {
		line += bytes.Count(data[counted:start], []byte{'\n'})
		counted = start
		gm := GrepMatch{Path: job.rel, Line: line, Text: lineText(data[start:end])}
		if n := g.opts.Context; n > 0 {
			gm.Before = linesBefore(data, start, n)
			gm.After = linesAfter(data, end, n)
		}
		out.matches = append(out.matches, gm)
		return len(out.matches) < limit
	})
	return out
}

// lineText is a line for display: no "\r", cut after MaxLineLen characters.
func lineText(b []byte) string {
	s, _ := cutLine(string(trimCR(b)))
	return s
}

// linesBefore returns up to n lines ending just before the line at start.
func linesBefore(data []byte, start, n int) []string {
	var out []string
	end := start - 1 // the "\n" ending the previous line
	for len(out) < n && end >= 0 {
		s := bytes.LastIndexByte(data[:end], '\n') + 1
		out = append(out, lineText(data[s:end]))
		end = s - 1
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// linesAfter returns up to n lines starting just after the line ending at end.
func linesAfter(data []byte, end, n int) []string {
	var out []string
	start := end + 1
	for len(out) < n && start < len(data) {
		e := bytes.IndexByte(data[start:], '\n')
		if e < 0 {
			e = len(data)
		} else {
			e += start
		}
		out = append(out, lineText(data[start:e]))
		start = e + 1
	}
	return out
}

// grepBufs keeps the searchers' read buffers from one grep to the next
// (each searcher had allocated 64 KiB a call: garbage and fresh heap pages
// on every grep). A buffer grown past maxPooledGrepBuf by a large file is
// left to the collector.
var grepBufs = sync.Pool{New: func() any { return new([]byte) }}

// maxPooledGrepBuf is the largest buffer grepBufs keeps.
const maxPooledGrepBuf = 1 << 20

// getGrepBuf takes a read buffer for one searcher; putGrepBuf gives it back
// (the matches copy their lines: nothing refers to it after the search).
func getGrepBuf() *[]byte { return grepBufs.Get().(*[]byte) }

func putGrepBuf(b *[]byte) {
	if cap(*b) <= maxPooledGrepBuf {
		grepBufs.Put(b)
	}
}

// growBuf returns (*buf)[:0] with room for size+1 bytes (the extra byte lets
// the read that sees end of file avoid a reallocation).
func growBuf(buf *[]byte, size int) []byte {
	if cap(*buf) < size+1 {
		*buf = make([]byte, 0, max(size+1, 64<<10))
	}
	return (*buf)[:0]
}
